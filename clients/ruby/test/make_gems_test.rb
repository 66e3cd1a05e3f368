# frozen_string_literal: true

require_relative "test_helper"
require "rubygems/package"
require "stringio"
require "zlib"
require_relative "../make_gems"

# make_gems.rb: the seven gems, each platform gem carrying its target's
# binary byte for byte.
class MakeGemsTest < Minitest::Test
  parallelize_me!

  SCRIPT = File.expand_path("../make_gems.rb", __dir__)

  def make(*args, env: {})
    TestSupport.run_in(Dir.pwd, TestSupport.ruby, SCRIPT, *args, env: env)
  end

  # The files of a gem: { path => [mode, bytes] }.
  def contents(gem)
    files = {}
    File.open(gem, "rb") do |f|
      Gem::Package::TarReader.new(f).each do |entry|
        next unless entry.full_name == "data.tar.gz"

        Gem::Package::TarReader.new(Zlib::GzipReader.new(StringIO.new(entry.read))).each do |e|
          files[e.full_name] = [e.header.mode & 0o777, e.read]
        end
      end
    end
    files
  end

  def test_the_seven_gems
    out_dir = File.join(Dir.mktmpdir("gems-", TestSupport::TMP), "gems")
    targets = Synapsefake::Binary.targets
    bins = targets.keys.to_h do |t|
      path = File.join(Dir.mktmpdir("bin-", TestSupport::TMP), t.start_with?("windows") ? "synapsefake.exe" : "synapsefake")
      File.binwrite(path, "binary of #{t}\x00\xff".b)
      [t, path]
    end
    out, status = make("--plain", "--epoch", "1700000000", "v1.2.3-rc.1", out_dir, *bins.map { |t, p| "#{t}=#{p}" })
    assert status.success?, out
    names = targets.values.map { |p| "synapsefake-1.2.3.rc.1-#{p}.gem" } + ["synapsefake-1.2.3.rc.1.gem"]
    assert_equal names.sort, Dir.children(out_dir).sort
    assert_equal 7, out.lines.grep(/\Amake_gems\.rb: synapsefake-1\.2\.3\.rc\.1.*\.gem +\d+ bytes\n\z/).size, out
    assert_equal targets, MakeGems::TARGETS

    targets.each do |target, platform|
      gem = File.join(out_dir, "synapsefake-1.2.3.rc.1-#{platform}.gem")
      spec = Gem::Package.new(gem).spec
      assert_equal [Gem::Platform.new(platform), Gem::Version.new("1.2.3.rc.1"), ">= 3.1", []],
                   [spec.platform, spec.version, spec.required_ruby_version.to_s, spec.runtime_dependencies], target
      files = contents(gem)
      exe = target.start_with?("windows") ? "synapsefake.exe" : "synapsefake"
      assert_equal [0o755, File.binread(bins[target])], files["lib/synapsefake/bin/#{exe}"], target
      assert_equal ["lib/synapsefake/bin/#{exe}"], files.keys.grep(%r{/bin/}), target
      assert_includes files["lib/synapsefake/version.rb"][1], 'VERSION = "1.2.3.rc.1"'
      assert_equal [0o644, File.binread(File.join(LIB, "synapsefake/control.rb"))], files["lib/synapsefake/control.rb"]
      assert files.key?("LICENSE") && files.key?("README.md")
    end
    plain = contents(File.join(out_dir, "synapsefake-1.2.3.rc.1.gem"))
    assert_empty plain.keys.grep(%r{/bin/})
    assert_equal Gem::Platform::RUBY, Gem::Package.new(File.join(out_dir, "synapsefake-1.2.3.rc.1.gem")).spec.platform

    # The same inputs give the same bytes.
    again = File.join(Dir.mktmpdir("gems-", TestSupport::TMP), "gems")
    _, = capture_io { MakeGems.build("v1.2.3-rc.1", again, bins.to_a, plain: true, epoch: 1_700_000_000) }
    names.each { |n| assert_equal File.binread(File.join(out_dir, n)), File.binread(File.join(again, n)), n }
  end

  def test_versions
    cases = { "v1.2.3" => "1.2.3", "v1.2.3-rc.1" => "1.2.3.rc.1", "v2.0.0-beta-2" => "2.0.0.beta.2",
              "v0.0.0-snapshot.52408d7e1a3b" => "0.0.1.snapshot.52408d7e1a3b", "v0.0.0" => "0.0.0" }
    cases.each { |tag, want| assert_equal want, MakeGems.gem_version(tag), tag }
    ["1.2.3", "v1.2", "vX", "v1.2.3-"].each do |tag|
      err = assert_raises(MakeGems::UsageError, tag) { MakeGems.gem_version(tag) }
      assert_includes err.message, "VERSION must look like v1.2.3", tag
    end
    err = assert_raises(MakeGems::UsageError) { MakeGems.build("v1.2.3", TestSupport::TMP, [["plan9/amd64", __FILE__]]) }
    assert_includes err.message, "GOOS/GOARCH one of linux/amd64"
    out, status = make("1.2.3", TestSupport::TMP, "linux/amd64=#{__FILE__}")
    refute status.success?
    assert_equal "make_gems.rb: VERSION must look like v1.2.3, v1.2.3-rc.1 or v0.0.0-snapshot.COMMIT, not \"1.2.3\"\n", out
  end

  def test_the_gemspec_builds_the_plain_gem_from_a_checkout
    dir = Dir.mktmpdir("gembuild-", TestSupport::TMP)
    out, status = TestSupport.run_in(File.expand_path("..", __dir__), "gem", "build", "synapsefake.gemspec",
                                     "--output", File.join(dir, "synapsefake.gem"))
    assert status.success?, out
    spec = Gem::Package.new(File.join(dir, "synapsefake.gem")).spec
    assert_equal [Synapsefake::VERSION, Gem::Platform::RUBY], [spec.version.to_s, spec.platform]
    assert_equal (Dir.glob("lib/**/*.rb", base: File.expand_path("..", __dir__)) + ["README.md"]).sort, spec.files
  end
end
