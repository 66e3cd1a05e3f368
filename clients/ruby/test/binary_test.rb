# frozen_string_literal: true

require_relative "test_helper"

# The binary search: the bin: option, SYNAPSEFAKE_BIN, the platform gem's
# binary, PATH, in that order, and the error that lists what was tried.
class BinaryTest < Minitest::Test
  def setup
    @a = TestSupport.script("synapsefake", "exit 0")
    @b = TestSupport.script("synapsefake", "exit 0")
    @packaged = TestSupport.script("synapsefake", "exit 0")
    @on_path = TestSupport.script("synapsefake", "exit 0")
    @absent = File.join(TestSupport::TMP, "absent", "synapsefake")
    @plain = File.join(Dir.mktmpdir("plain-", TestSupport::TMP), "synapsefake")
    File.write(@plain, "not executable")
  end

  def test_each_source_in_order
    path = File.dirname(@on_path)
    cases = [
      ["the bin: option first", @a, { "SYNAPSEFAKE_BIN" => @b, "PATH" => path }, @packaged, @a, :option],
      ["then SYNAPSEFAKE_BIN", nil, { "SYNAPSEFAKE_BIN" => @b, "PATH" => path }, @packaged, @b, :env],
      ["an empty SYNAPSEFAKE_BIN is unset", nil, { "SYNAPSEFAKE_BIN" => "", "PATH" => path }, @packaged, @packaged, :gem],
      ["then the platform gem's", nil, { "PATH" => path }, @packaged, @packaged, :gem],
      ["then PATH", nil, { "PATH" => "#{File.dirname(@absent)}:#{path}" }, @absent, @on_path, :path]
    ]
    cases.each do |name, bin, env, packaged, want, source|
      found = Synapsefake::Binary.find(bin, env: env, packaged: packaged)
      assert_equal [want, source], [found.path, found.source], name
    end
  end

  def test_a_given_path_that_does_not_run_is_an_error_not_a_reason_to_look_further
    path = File.dirname(@on_path)
    cases = [
      ["bin: absent", @absent, {}, ["the bin: option: #{@absent} (no such file)"]],
      ["bin: not executable", @plain, {}, ["the bin: option: #{@plain} (not executable)"]],
      ["SYNAPSEFAKE_BIN absent", nil, { "SYNAPSEFAKE_BIN" => @absent },
       ["the bin: option: not set", "$SYNAPSEFAKE_BIN: #{@absent} (no such file)"]]
    ]
    cases.each do |name, bin, env, tried|
      err = assert_raises(Synapsefake::BinaryNotFound, name) do
        Synapsefake::Binary.find(bin, env: env.merge("PATH" => path), packaged: @packaged)
      end
      assert_equal tried, err.tried, name
    end
  end

  def test_nothing_found_lists_every_place_tried
    err = assert_raises(Synapsefake::BinaryNotFound) do
      Synapsefake::Binary.find(nil, env: { "PATH" => File.dirname(@absent) }, packaged: @absent)
    end
    assert_equal ["the bin: option: not set", "$SYNAPSEFAKE_BIN: not set",
                  "the binary inside the synapsefake gem: #{@absent} (absent: this is not a platform gem such as x86_64-linux)",
                  "synapsefake on PATH: not found"], err.tried
    assert_match(/\Asynapsefake: no synapsefake binary found; tried, in order:\n  1\. the bin: option: not set\n/, err.message)
    assert_includes err.message, "  4. synapsefake on PATH: not found\n"
    assert_includes err.message, "SYNAPSEFAKE_BIN"

    err = assert_raises(Synapsefake::BinaryNotFound) { Synapsefake::Binary.find(nil, env: {}, packaged: @plain) }
    assert_equal ["the binary inside the synapsefake gem: #{@plain} (not executable)", "synapsefake on PATH: PATH is empty"],
                 err.tried.last(2)
  end

  def test_start_says_where_it_looked
    err = assert_raises(Synapsefake::BinaryNotFound) { Synapsefake.start(bin: @absent) }
    assert_includes err.message, "the bin: option: #{@absent} (no such file)"
  end

  def test_the_platform_gems_targets
    assert_equal({ "linux/amd64" => "x86_64-linux", "linux/arm64" => "aarch64-linux",
                   "darwin/amd64" => "x86_64-darwin", "darwin/arm64" => "arm64-darwin",
                   "windows/amd64" => "x64-mingw-ucrt", "windows/arm64" => "aarch64-mingw-ucrt" },
                 Synapsefake::Binary.targets)
    cases = {
      "x86_64-linux" => "x86_64-linux", "x86_64-linux-gnu" => "x86_64-linux", "aarch64-linux" => "aarch64-linux",
      "arm64-darwin-23" => "arm64-darwin", "x86_64-darwin-22" => "x86_64-darwin", "x64-mingw-ucrt" => "x64-mingw-ucrt",
      "aarch64-mingw-ucrt" => "aarch64-mingw-ucrt", "x86-mingw32" => nil, "java" => nil
    }
    cases.each do |local, want|
      got = Synapsefake::Binary.gem_platform(Gem::Platform.new(local))
      want ? assert_equal(want, got, local) : assert_nil(got, local)
    end
  end

  def test_the_packaged_binary_is_inside_the_gems_lib
    assert_equal File.join(LIB, "synapsefake", "bin", "synapsefake"), Synapsefake::Binary.packaged
  end
end
