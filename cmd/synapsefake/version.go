package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// repository is where the sources and docs/ are published.
const repository = "github.com/synapsefake/synapsefake"

// version is the release's version, set by scripts/release.sh with
// -ldflags "-X main.version=v1.2.3". Without it, -version prints the module
// version the go command recorded in the binary: the tag that
// `go install ...@latest` fetched, or a pseudo-version from the checkout.
var version string

// versionLine is what -version prints: "synapsefake VERSION (GO OS/ARCH)",
// with the commit when the build recorded one. buildInfo is
// debug.ReadBuildInfo.
func versionLine(release string, buildInfo func() (*debug.BuildInfo, bool)) string {
	v, goVersion, commit := release, runtime.Version(), ""
	if bi, ok := buildInfo(); ok {
		if v == "" {
			v = bi.Main.Version
		}
		goVersion = bi.GoVersion
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				commit = s.Value
			}
		}
	}
	if v == "" {
		v = "(devel)"
	}
	line := fmt.Sprintf("synapsefake %s (%s %s/%s", v, goVersion, runtime.GOOS, runtime.GOARCH)
	if commit != "" {
		line += ", commit " + commit[:min(len(commit), 12)]
	}
	return line + ")"
}
