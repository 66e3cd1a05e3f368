# frozen_string_literal: true

require_relative "test_helper"

# Parallel runs: parallel_tests' workers (processes, TEST_ENV_NUMBER) each
# start their own binary; Minitest's parallelize_me! threads share the
# process's binary, each test with its own platform.
class ParallelTest < Minitest::Test
  parallelize_me!

  SPEC = <<~'RUBY'
    require "synapsefake/rspec"

    RSpec.describe "worker %<n>s" do
      3.times do |i|
        it "sees only its own user #{i}" do
          user = synapsefake.add_user(legal_names: ["Worker %<n>s #{i}"])
          expect(synapsefake.users.map { |u| u["_id"] }).to eq([user["_id"]])
          puts "server #{synapsefake.base_url} pid #{Synapsefake.server.pid}"
        end
      end
    end
  RUBY

  def test_parallel_tests_workers_each_start_their_own_binary
    dir = TestSupport.project({ "spec/a_spec.rb" => format(SPEC, n: "a"), "spec/b_spec.rb" => format(SPEC, n: "b") })
    # As parallel_tests runs them: one process per group, TEST_ENV_NUMBER "" for the first, "2" for the next.
    full = { "RUBYLIB" => LIB, "SYNAPSEFAKE_BIN" => TestSupport.real_binary, "PARALLEL_TEST_GROUPS" => "2" }
    runs = [["", "spec/a_spec.rb"], ["2", "spec/b_spec.rb"]].map do |number, file|
      Thread.new { Open3.capture2e(full.merge("TEST_ENV_NUMBER" => number), "rspec", "--no-color", file, chdir: dir) }
    end.map(&:value)
    runs.each { |out, status| assert status.success?, out }
    servers = runs.map { |out, _| out.scan(/^server (\S+) pid (\d+)$/).uniq }
    assert_equal [1, 1], servers.map(&:size), runs.map(&:first).join
    refute_equal servers[0], servers[1]
    assert_match(/^synapsefake \(worker 1\): binary /, runs[0][0])
    assert_match(/^synapsefake \(worker 2\): binary /, runs[1][0])
    assert_match(/^synapsefake \(worker 2\): fresh platform per example: median [\d.]+ ms over 3 examples/, runs[1][0])
  end

  def test_parallel_rspec
    skip "parallel_rspec is not installed (Debian's ruby-parallel-tests)" unless system("command -v parallel_rspec >/dev/null")
    dir = TestSupport.project({ "spec/a_spec.rb" => format(SPEC, n: "a"), "spec/b_spec.rb" => format(SPEC, n: "b") })
    out, status = TestSupport.run_in(dir, "parallel_rspec", "-n", "2", "spec")
    assert status.success?, out
    assert_equal 2, out.scan(/^server (\S+) pid (\d+)$/).uniq.size, out
    assert_match(/^synapsefake \(worker 1\): binary /, out)
    assert_match(/^synapsefake \(worker 2\): binary /, out)
  end

  def test_minitest_parallelize_me_threads_share_the_binary
    tests = <<~'RUBY'
      require "minitest/autorun"
      require "synapsefake/minitest"

      class ThreadsTest < Minitest::Test
        include Synapsefake::Minitest
        parallelize_me!

        PLATFORMS = Queue.new
        Minitest.after_run { puts "platforms #{Array.new(PLATFORMS.size) { PLATFORMS.pop }.uniq.size}" }

        8.times do |i|
          define_method("test_own_user_#{i}") do
            user = synapsefake.add_user(legal_names: ["Thread #{i}"])
            synapsefake.advance(i * 60)
            assert_equal [user["_id"]], synapsefake.users.map { |u| u["_id"] }
            assert_equal Synapsefake::DEFAULT_START + i * 60, synapsefake.now
            PLATFORMS << synapsefake.client_id
          end
        end
      end
    RUBY
    dir = TestSupport.project({ "threads_test.rb" => tests })
    out, status = TestSupport.run_in(dir, TestSupport.ruby, "threads_test.rb", env: { "MT_CPU" => "4" })
    assert status.success?, out
    assert_includes out, "platforms 8"
    assert_equal 1, out.scan(/^synapsefake: binary /).size, out
    assert_match(/^synapsefake: fresh platform per test: median [\d.]+ ms over 8 tests/, out)
  end
end
