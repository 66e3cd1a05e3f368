# frozen_string_literal: true

require_relative "test_helper"

# synapsefake/minitest, run in ruby processes of their own.
class MinitestHelperTest < Minitest::Test
  parallelize_me!

  TESTS = <<~'RUBY'
    require "minitest/autorun"
    require "synapsefake/minitest"
    require "net/http"

    SEEN = Queue.new

    class HelperTest < Minitest::Test
      include Synapsefake::Minitest

      def test_a_user_of_my_own
        SEEN << synapsefake.client_id
        synapsefake.add_user(legal_names: ["One"])
        assert_equal [["One"]], synapsefake.users.map { |u| u["legal_names"] }
        assert_equal Synapsefake::DEFAULT_START, synapsefake.now
      end

      def test_another_user_of_my_own
        SEEN << synapsefake.client_id
        synapsefake.add_user(legal_names: ["Two"])
        assert_equal [["Two"]], synapsefake.users.map { |u| u["legal_names"] }
      end

      def test_options_at_the_first_use
        synapsefake(start: "2030-01-01T00:00:00Z", funds_check: true)
        assert_equal Time.utc(2030), synapsefake.now
        assert_includes synapsefake_server.command, "-funds-check"
        assert_raises(ArgumentError) { synapsefake(seed: 1) }
      end

      def test_skipped_prints_nothing
        synapsefake
        skip "not today"
      end

      def test_fails_and_shows_the_refused_requests
        Net::HTTP.get_response(URI("#{synapsefake.base_url}/users"), { "X-SP-GATEWAY" => "#{synapsefake.client_id}|wrong" })
        assert_equal 1, 2
      end

      def test_errors_and_shows_them_too
        synapsefake.settle("0123456789abcdef01234567")
      end
    end

    class ClassOptionsTest < Minitest::Test
      include Synapsefake::Minitest
      synapsefake_options start: "2031-01-01T00:00:00Z"

      def test_the_class_options
        assert_equal Time.utc(2031), synapsefake.now
      end
    end

    class SubclassOptionsTest < ClassOptionsTest
      synapsefake_options seed: 5

      def test_the_class_options
        assert_equal({ start: "2031-01-01T00:00:00Z", seed: 5 }, self.class.synapsefake_options)
        super
      end
    end

    Minitest.after_run do
      puts "platforms seen: #{Array.new(SEEN.size) { SEEN.pop }.uniq.size}"
      # Minitest runs this after the binaries are stopped (the handler that
      # stops them was registered during the run); this one starts again,
      # to be stopped in its turn.
      puts "binary pid #{Synapsefake.server.pid}"
    end
  RUBY

  def run_tests(text, env: {})
    dir = TestSupport.project({ "helper_test.rb" => text })
    TestSupport.run_in(dir, TestSupport.ruby, "helper_test.rb", env: env)
  end

  def test_each_test_its_own_platform_options_and_the_failure_report
    out, status = run_tests(TESTS)
    refute status.success?, out
    assert_match(/^8 runs, \d+ assertions, 1 failures, 1 errors, 1 skips$/, out)
    failure = out[/Failure:\nHelperTest#test_fails_and_shows_the_refused_requests.*?\n\n(?=\s*\d\) |\d+ runs)/m]
    assert failure, out
    assert_match(/^synapsefake: platform client_id_\w+ received 1 API request, 1 refused:\n  GET \/v3\.1\/users -> 401 error_code 100: X-SP-GATEWAY's client_secret is not this fake's/, failure)
    error = out[/Error:\nHelperTest#test_errors_and_shows_them_too:\nSynapsefake::ControlError: .*?\n\n(?=\s*\d\) |\d+ runs)/m]
    assert error, out
    assert_includes error, "synapsefake: platform "
    assert_includes error, "received 0 API requests, 0 refused (no API request reached this test's platform)"
    assert_equal 2, out.scan("synapsefake: platform ").size, "only the failed tests have a report:\n#{out}"
    assert_includes out, "platforms seen: 2"
    assert_match(/^synapsefake: binary #{Regexp.escape(TestSupport.real_binary)} \(\$SYNAPSEFAKE_BIN\): spawn to banner [\d.]+ ms, spawn to ready [\d.]+ ms, cost beyond the binary's own start [\d.]+ ms$/, out)
    assert_match(/^synapsefake: fresh platform per test: median [\d.]+ ms over 8 tests \(max [\d.]+ ms\)$/, out)
  end

  def test_a_passing_run_prints_no_report
    passing = TESTS.sub(/\n  def test_fails_and_shows.*?\n  def test_errors_and_shows_them_too\n.*?\n  end\n/m, "\n")
    out, status = run_tests(passing)
    assert status.success?, out
    assert_match(/^6 runs, \d+ assertions, 0 failures, 0 errors, 1 skips$/, out)
    refute_includes out, "synapsefake: platform "
    pid = Integer(out[/^binary pid (\d+)$/, 1])
    assert_raises(Errno::ESRCH) { Process.kill(0, pid) } # stopped when the run's process exited
  end
end
