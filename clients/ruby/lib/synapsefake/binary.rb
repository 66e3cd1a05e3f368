# frozen_string_literal: true

require "rbconfig"

module Synapsefake
  # No synapsefake binary was found: tried lists each place looked at, with
  # why it did not do, in the order searched.
  class BinaryNotFound < Error
    attr_reader :tried

    def initialize(tried)
      @tried = tried
      lines = tried.each_with_index.map { |t, i| "  #{i + 1}. #{t}" }.join("\n")
      super("synapsefake: no synapsefake binary found; tried, in order:\n#{lines}\n" \
            "Give one with Synapsefake.start(bin: PATH) or SYNAPSEFAKE_BIN, install the platform gem of " \
            "synapsefake for this machine (#{Binary.gem_platform || "none is built for it"}: it carries the binary), " \
            "or put synapsefake on PATH (go install github.com/synapsefake/synapsefake/cmd/synapsefake@latest).")
    end
  end

  # The binary a server runs: its path and where it was found (:option,
  # :env, :gem or :path).
  Binary = Struct.new(:path, :source) do
    # Where it was found, in words: "the bin: option", "$SYNAPSEFAKE_BIN",
    # "inside the synapsefake gem" or "PATH".
    def where
      { option: "the bin: option", env: "$SYNAPSEFAKE_BIN", gem: "inside the synapsefake gem", path: "PATH" }
        .fetch(source, source.to_s)
    end
  end

  class << Binary
    # The RubyGems platform of each release target (GOOS/GOARCH): the
    # platform gems are synapsefake-VERSION-PLATFORM.gem.
    TARGETS = {
      "linux/amd64" => "x86_64-linux",
      "linux/arm64" => "aarch64-linux",
      "darwin/amd64" => "x86_64-darwin",
      "darwin/arm64" => "arm64-darwin",
      "windows/amd64" => "x64-mingw-ucrt",
      "windows/arm64" => "aarch64-mingw-ucrt"
    }.freeze

    # The release targets, GOOS/GOARCH to RubyGems platform.
    def targets
      TARGETS
    end

    # The platform gem for this machine, or nil when none is built for it.
    def gem_platform(local = Gem::Platform.local)
      TARGETS.values.find { |p| Gem::Platform.new(p) === local }
    end

    # Whether this Ruby runs on Windows.
    def windows?
      RbConfig::CONFIG["host_os"].match?(/mswin|mingw|cygwin/)
    end

    # The binary's file name here: synapsefake, synapsefake.exe on Windows.
    def exe
      windows? ? "synapsefake.exe" : "synapsefake"
    end

    # Where a platform gem carries the binary: lib/synapsefake/bin/ of this gem.
    def packaged
      File.join(__dir__, "bin", exe)
    end

    # Finds the binary, in this order: bin (the bin: option), the
    # SYNAPSEFAKE_BIN environment variable, the binary a platform gem
    # carries (lib/synapsefake/bin/), then synapsefake on PATH. A path given
    # by bin or SYNAPSEFAKE_BIN that is not an executable file is an error
    # at once, not a reason to look further. Raises BinaryNotFound, naming
    # what was tried, when none does. env and packaged stand in for ENV and
    # the gem's own path (for tests).
    def find(bin = nil, env: ENV, packaged: self.packaged)
      tried = []
      [[:option, "the bin: option", bin], [:env, "$SYNAPSEFAKE_BIN", env["SYNAPSEFAKE_BIN"]]].each do |source, what, value|
        if value.nil? || value.to_s.empty?
          tried << "#{what}: not set"
          next
        end
        path = File.expand_path(value.to_s)
        return Binary.new(path, source) if executable?(path)

        tried << "#{what}: #{path} (#{File.file?(path) ? "not executable" : "no such file"})"
        raise BinaryNotFound, tried
      end
      if File.file?(packaged)
        return Binary.new(packaged, :gem) if executable?(packaged)

        tried << "the binary inside the synapsefake gem: #{packaged} (not executable)"
      else
        tried << "the binary inside the synapsefake gem: #{packaged} " \
                 "(absent: this is not a platform gem#{gem_platform ? " such as #{gem_platform}" : ""})"
      end
      dirs = env["PATH"].to_s.split(File::PATH_SEPARATOR).reject(&:empty?)
      dirs.each do |dir|
        path = File.expand_path(exe, dir)
        return Binary.new(path, :path) if executable?(path)
      end
      tried << "#{exe} on PATH: #{dirs.empty? ? "PATH is empty" : "not found"}"
      raise BinaryNotFound, tried
    end

    private

    def executable?(path)
      File.file?(path) && File.executable?(path)
    end
  end
end
