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
#            written as RubyGems has it: 1.2.3, 1.2.3.rc.1, 0.0.1.snapshot.COMMIT
#            (a prerelease of 0.0.0 would sort below 0, where require never
#            looks)
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
require "zlib"

# The gems' builder; `ruby make_gems.rb ...` runs MakeGems.main.
module MakeGems
  HERE = __dir__
  ROOT = File.expand_path("../..", HERE)
  # The RubyGems platform of each target GOOS/GOARCH (Synapsefake::Binary.targets).
  TARGETS = {
    "linux/amd64" => "x86_64-linux", "linux/arm64" => "aarch64-linux",
    "darwin/amd64" => "x86_64-darwin", "darwin/arm64" => "arm64-darwin",
    "windows/amd64" => "x64-mingw-ucrt", "windows/arm64" => "aarch64-mingw-ucrt"
  }.freeze

  # An error in the arguments.
  class UsageError < StandardError; end

  # Gem::Package compressing at zlib's default level rather than its best:
  # on the binary, a third of the time for 0.7% more bytes.
  class Package < Gem::Package
    def gzip_to(io)
      gz_io = Zlib::GzipWriter.new(io, Zlib::DEFAULT_COMPRESSION)
      gz_io.mtime = @build_time
      yield gz_io
    ensure
      gz_io.close
    end
  end

  module_function

  # RubyGems' form of a Go release tag: v1.2.3 is 1.2.3, v1.2.3-rc.1 is
  # 1.2.3.rc.1, and a prerelease of 0.0.0 (v0.0.0-snapshot.COMMIT) is one of
  # 0.0.1 (0.0.1.snapshot.COMMIT): RubyGems orders 0.0.0.snapshot below 0,
  # where require, which asks for ">= 0", never finds it.
  def gem_version(tag)
    m = /\Av(\d+\.\d+\.\d+)(?:-([0-9A-Za-z.-]+))?\z/.match(tag)
    unless m
      raise UsageError, "VERSION must look like v1.2.3, v1.2.3-rc.1 or v0.0.0-snapshot.COMMIT, not #{tag.inspect}"
    end

    base = m[2] && m[1] == "0.0.0" ? "0.0.1" : m[1]
    version = m[2] ? "#{base}.#{m[2].tr("-", ".")}" : base
    raise UsageError, "#{version.inspect} is not a RubyGems version" unless Gem::Version.correct?(version)

    version
  end

  # Writes the gems into outdir: one per [GOOS/GOARCH, binary] of binaries,
  # and the plain one if plain; answers their file names.
  def build(tag, outdir, binaries, plain: false, epoch: nil)
    version = gem_version(tag)
    binaries.each do |target, path|
      raise UsageError, "#{target}: GOOS/GOARCH one of #{TARGETS.keys.join(", ")}" unless TARGETS[target]
      raise UsageError, "#{path} is not a file" unless File.file?(path.to_s)
    end
    sources = Dir.glob("lib/**/*.rb", base: HERE).sort
    epoch ||= Integer(ENV["SOURCE_DATE_EPOCH"]) if ENV["SOURCE_DATE_EPOCH"]
    epoch ||= (sources.map { |f| File.join(HERE, f) } + [File.join(HERE, "README.md")]).map { |f| File.mtime(f).to_i }.max
    FileUtils.mkdir_p(outdir)
    outdir = File.expand_path(outdir)
    # Gem::Package dates the entries, and the spec its date, by SOURCE_DATE_EPOCH.
    saved = ENV["SOURCE_DATE_EPOCH"]
    ENV["SOURCE_DATE_EPOCH"] = epoch.to_s
    (binaries.map { |target, path| [TARGETS[target], File.expand_path(path)] } + (plain ? [[nil, nil]] : []))
      .map { |platform, binary| build_one(version, sources, outdir, platform, binary) }
  ensure
    ENV["SOURCE_DATE_EPOCH"] = saved if epoch
  end

  def build_one(version, sources, outdir, platform, binary)
    Dir.mktmpdir("synapsefake-gem-") do |stage|
      sources.each do |f|
        FileUtils.mkdir_p(File.join(stage, File.dirname(f)))
        FileUtils.cp(File.join(HERE, f), File.join(stage, f))
      end
      File.write(File.join(stage, "lib/synapsefake/version.rb"),
                 File.read(File.join(HERE, "lib/synapsefake/version.rb")).sub(/VERSION = ".*"/, "VERSION = #{version.dump}"))
      FileUtils.cp(File.join(HERE, "README.md"), stage)
      FileUtils.cp(File.join(ROOT, "LICENSE"), stage)
      spec = Gem::Specification.load(File.join(HERE, "synapsefake.gemspec")).dup
      spec.version = version
      spec.files = sources + %w[README.md LICENSE]
      if platform
        exe = platform.include?("mingw") ? "synapsefake.exe" : "synapsefake"
        dest = File.join(stage, "lib/synapsefake/bin", exe)
        FileUtils.mkdir_p(File.dirname(dest))
        FileUtils.cp(binary, dest)
        spec.files += ["lib/synapsefake/bin/#{exe}"]
        spec.platform = platform
      end
      spec.files.each { |f| File.chmod(f.include?("/bin/") ? 0o755 : 0o644, File.join(stage, f)) }
      file = Dir.chdir(stage) { Gem::DefaultUserInteraction.use_ui(Gem::SilentUI.new) { Package.build(spec) } }
      FileUtils.mv(File.join(stage, file), File.join(outdir, file))
      printf("make_gems.rb: %-48s %9d bytes\n", file, File.size(File.join(outdir, file)))
      file
    end
  end

  def main(argv)
    usage = "usage: ruby clients/ruby/make_gems.rb [--plain] [--epoch SECONDS] VERSION OUTDIR GOOS/GOARCH=BINARY..."
    plain = false
    epoch = nil
    args = argv.dup
    while args.first&.start_with?("--")
      case args.shift
      when "--plain" then plain = true
      when "--epoch" then epoch = Integer(args.shift || raise(UsageError, usage))
      else raise UsageError, usage
      end
    end
    tag, outdir, *pairs = args
    raise UsageError, usage if outdir.nil? || (pairs.empty? && !plain)

    binaries = pairs.map do |pair|
      target, path = pair.split("=", 2)
      raise UsageError, "#{pair.inspect}: want GOOS/GOARCH=BINARY" unless path

      [target, path]
    end
    build(tag, outdir, binaries, plain: plain, epoch: epoch)
  rescue UsageError, ArgumentError => e
    abort "make_gems.rb: #{e.message}"
  end
end

MakeGems.main(ARGV) if $PROGRAM_NAME == __FILE__
