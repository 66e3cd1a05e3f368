package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/synapsefake/synapsefake"
)

// loadState restores fake from file, if there is one, and reports whether
// it did. A file that cannot be read or restored stops the start, so that
// the next save does not overwrite it.
func loadState(fake *synapsefake.Server, file string) (bool, error) {
	if file == "" {
		return false, nil
	}
	removeStaleTemps(file)
	f, err := os.Open(file)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	if err := fake.Restore(f); err != nil {
		return false, fmt.Errorf("-state %s: %w", file, err)
	}
	return true, nil
}

// removeStaleTemps removes the temporary files that saves of file left
// behind when the process was killed mid-save (writeFileAtomic names them
// file.tmp-*). Only a save of this file writes them, and none has started.
func removeStaleTemps(file string) {
	dir, base := filepath.Split(file)
	if dir == "" {
		dir = "."
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if name := e.Name(); !e.IsDir() && len(name) > len(base)+5 && name[:len(base)+5] == base+".tmp-" {
			_ = os.Remove(filepath.Join(dir, name))
		}
	}
}

// saveState writes the default platform's state to file atomically, and
// the other platforms' (SnapshotMade) to file.platforms when there are some
// or were some at the last save.
func saveState(platforms *synapsefake.Platforms, file string) error {
	if err := writeFileAtomic(file, platforms.Default().Snapshot); err != nil {
		return fmt.Errorf("-state %s: %w", file, err)
	}
	side := file + platformsSuffix
	if _, err := os.Stat(side); err != nil && len(platforms.List()) == 1 {
		return nil // nothing changes for a user who never makes a platform
	}
	if err := writeFileAtomic(side, platforms.SnapshotMade); err != nil {
		return fmt.Errorf("-state %s: %w", side, err)
	}
	return nil
}

// platformsSuffix names the file beside -state's that holds the platforms
// made besides the default (issue 37).
const platformsSuffix = ".platforms"

// loadPlatforms makes again the platforms saved beside file, if any.
func loadPlatforms(platforms *synapsefake.Platforms, file string) error {
	if file == "" {
		return nil
	}
	side := file + platformsSuffix
	removeStaleTemps(side)
	f, err := os.Open(side)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if err := platforms.RestoreMade(f); err != nil {
		return fmt.Errorf("-state %s: %w", side, err)
	}
	return nil
}

// writeFileAtomic replaces file with what write writes, so that a reader
// (or a crash) sees the old file or the new one, never part of one: it
// writes a temporary file in the same directory, syncs it to disk, and
// renames it over file. On failure file is left as it was.
func writeFileAtomic(file string, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(file)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, base+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil { // make the rename itself durable
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// loadWorld loads the world file into fake.
func loadWorld(fake *synapsefake.Server, file string) (synapsefake.World, error) {
	f, err := os.Open(file)
	if err != nil {
		return synapsefake.World{}, fmt.Errorf("-world: %w", err)
	}
	defer f.Close()
	w, err := fake.LoadWorld(f)
	if err != nil {
		return synapsefake.World{}, fmt.Errorf("-world %s: %w", file, err)
	}
	return w, nil
}
