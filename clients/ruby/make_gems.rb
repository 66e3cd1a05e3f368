#!/usr/bin/env ruby
# frozen_string_literal: true

# Writes the synapsefake gems: one platform gem per binary, with the binary
# inside (lib/synapsefake/bin/synapsefake[.exe], as nokogiri and
# sass-embedded ship theirs), and on request the plain gem (no binary: it
# finds one by SYNAPSEFAKE_BIN or on PATH). Ruby's standard library only
# (rubygems/package); nothing downloaded.
#
# Usage:
#
#   ruby clients/ruby/make_gems.rb [--plain] [--epoch SECONDS] VERSION OUTDIR GOOS/GOARCH=BINARY...
#
#   VERSION  the Go release tag: v1.2.3, v1.2.3-rc.1 or v0.0.0-snapshot.COMMIT,
#            written as RubyGems has it: 1.2.3, 1.2.3.rc.1, 0.0.0.snapshot.COMMIT
#   OUTDIR   made if missing; gems of the same names are replaced
#   GOOS/GOARCH=BINARY
#            a binary built for that target, one of
#              linux/amd64 (x86_64-linux)     linux/arm64 (aarch64-linux)
#              darwin/amd64 (x86_64-darwin)   darwin/arm64 (arm64-darwin)
#              windows/amd64 (x64-mingw-ucrt) windows/arm64 (aarch64-mingw-ucrt)
#   --plain  also write synapsefake-VERSION.gem, the gem without a binary
#   --epoch  the time every entry is dated (default SOURCE_DATE_EPOCH, else
#            the newest source file's), so the same inputs give the same bytes
#
# Each gem is synapsefake-VERSION[-PLATFORM].gem, holding lib/ (the version
# written into lib/synapsefake/version.rb), README.md and LICENSE, and for a
# platform gem its binary with its executable bit. It prints one line per gem.
require "fileutils"
require "rubygems/package"
require "tmpdir"

HERE = __dir__
ROOT = File.expand_path("../..", HERE)

# RubyGems' form of a Go release tag.
def gem_version(tag)
  m = /\Av(\d+\.\d+\.\d+)(?:-([0-9A-Za-z.-]+))?\z/.match(tag)
  abort "make_gems.rb: VERSION must look like v1.2.3, v1.2.3-rc.1 or v0.0.0-snapshot.COMMIT, not #{tag.inspect}" unless m
  version = m[2] ? "#{m[1]}.#{m[2].tr("-", ".")}" : m[1]
  abort "make_gems.rb: #{version.inspect} is not a RubyGems version" unless Gem::Version.correct?(version)
  version
end

def usage
  abort "usage: ruby clients/ruby/make_gems.rb [--plain] [--epoch SECONDS] VERSION OUTDIR GOOS/GOARCH=BINARY..."
end

plain = false
epoch = nil
args = ARGV.dup
while args.first&.start_with?("--")
  case args.shift
  when "--plain" then plain = true
  when "--epoch" then epoch = Integer(args.shift || usage)
  else usage
  end
end
usage if args.size < 2
tag, outdir, *pairs = args
version = gem_version(tag)
targets = {
  "linux/amd64" => "x86_64-linux", "linux/arm64" => "aarch64-linux",
  "darwin/amd64" => "x86_64-darwin", "darwin/arm64" => "arm64-darwin",
  "windows/amd64" => "x64-mingw-ucrt", "windows/arm64" => "aarch64-mingw-ucrt"
}
binaries = pairs.map do |pair|
  target, path = pair.split("=", 2)
  abort "make_gems.rb: #{pair.inspect}: want GOOS/GOARCH=BINARY, GOOS/GOARCH one of #{targets.keys.join(", ")}" unless path && targets[target]
  abort "make_gems.rb: #{path} is not a file" unless File.file?(path)
  [target, File.expand_path(path)]
end
usage if binaries.empty? && !plain

sources = Dir.glob("lib/**/*.rb", base: HERE).sort
epoch ||= Integer(ENV["SOURCE_DATE_EPOCH"]) if ENV["SOURCE_DATE_EPOCH"]
epoch ||= (sources.map { |f| File.join(HERE, f) } + [File.join(HERE, "README.md")]).map { |f| File.mtime(f).to_i }.max
# Gem::Package dates the entries, and the spec its date, by SOURCE_DATE_EPOCH.
ENV["SOURCE_DATE_EPOCH"] = epoch.to_s
FileUtils.mkdir_p(outdir)
outdir = File.expand_path(outdir)

build = lambda do |platform, binary|
  Dir.mktmpdir("synapsefake-gem-") do |stage|
    sources.each do |f|
      FileUtils.mkdir_p(File.join(stage, File.dirname(f)))
      FileUtils.cp(File.join(HERE, f), File.join(stage, f))
    end
    File.write(File.join(stage, "lib/synapsefake/version.rb"),
               File.read(File.join(HERE, "lib/synapsefake/version.rb"))
                   .sub(/VERSION = ".*"/, "VERSION = #{version.dump}"))
    FileUtils.cp(File.join(HERE, "README.md"), stage)
    FileUtils.cp(File.join(ROOT, "LICENSE"), stage)
    spec = Gem::Specification.load(File.join(HERE, "synapsefake.gemspec"))&.dup or abort "make_gems.rb: synapsefake.gemspec does not load"
    spec.version = version
    spec.files = sources + %w[README.md LICENSE]
    if platform
      exe = platform.include?("mingw") ? "synapsefake.exe" : "synapsefake"
      dest = File.join(stage, "lib/synapsefake/bin", exe)
      FileUtils.mkdir_p(File.dirname(dest))
      FileUtils.cp(binary, dest)
      File.chmod(0o755, dest)
      spec.files += ["lib/synapsefake/bin/#{exe}"]
      spec.platform = platform
    end
    spec.files.each { |f| File.chmod(f.include?("/bin/") ? 0o755 : 0o644, File.join(stage, f)) }
    file = Dir.chdir(stage) { Gem::DefaultUserInteraction.use_ui(Gem::SilentUI.new) { Gem::Package.build(spec) } }
    FileUtils.mv(File.join(stage, file), File.join(outdir, file))
    printf("make_gems.rb: %-48s %9d bytes\n", file, File.size(File.join(outdir, file)))
  end
end

binaries.each { |target, path| build.call(targets.fetch(target), path) }
build.call(nil, nil) if plain
