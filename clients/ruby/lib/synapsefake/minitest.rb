# frozen_string_literal: true

# The Minitest helper: require "synapsefake/minitest" and include
# Synapsefake::Minitest in a test class; each test gets a fresh platform as
# `synapsefake`, made at its first use on the process's binary (started
# once, stopped at exit) and deleted after the test:
#
#   class SignUpTest < Minitest::Test
#     include Synapsefake::Minitest
#     synapsefake_options start: "2026-01-05T09:00:00Z"   # every test of the class
#
#     def test_adds_a_user
#       user = synapsefake.add_user(legal_names: ["Ann"])
#       assert_equal [user["_id"]], synapsefake.users.map { |u| u["_id"] }
#     end
#
#     def test_refuses_an_overdraft
#       synapsefake(funds_check: true)    # options of this test's platform, at its first use
#       ...
#     end
#   end
#
# Options are the platform's fields (start, clock, seed, name, client_id,
# client_secret) and flags of the binary (funds_check: true...), which run
# on a binary started with them. A failed test that used its platform
# prints the requests the platform refused, with the fake's reasons, in its
# failure's message. The run ends with the binary's start-up figures and
# the median cost of a platform. With parallelize_me! the tests' threads
# share the process's binary, each test with its own platform.
require "minitest"
require "synapsefake"

module Synapsefake
  # The Minitest helper (see synapsefake/minitest).
  module Minitest
    # The failure a report is attached to prints it after its own message.
    module Reported
      # The platform's report, printed after the failure's message.
      attr_accessor :synapsefake_report

      def message
        text = super
        return text if synapsefake_report.nil? || text.end_with?(synapsefake_report)

        "#{text}\n\n#{synapsefake_report}"
      end
    end

    # The class methods a test class gets.
    module ClassMethods
      # Sets the options of every test's platform in the class (and its
      # subclasses); without arguments, answers them.
      def synapsefake_options(**options)
        inherited = superclass.respond_to?(:synapsefake_options) ? superclass.synapsefake_options : {}
        @synapsefake_options = (@synapsefake_options || {}).merge(options) unless options.empty?
        inherited.merge(@synapsefake_options || {})
      end
    end

    def self.included(base)
      base.extend(ClassMethods)
    end

    # The test's own platform (a Synapsefake::Platform), made at the first
    # call with the class's options and these, and deleted after the test.
    # Options once it is made are an error.
    def synapsefake(**options)
      if @synapsefake_platform
        return @synapsefake_platform if options.empty?

        raise ArgumentError, "synapsefake: this test's platform is made already; give its options " \
                             "(#{options.keys.join(", ")}) at the first call"
      end
      @synapsefake_platform = Synapsefake.platform_for_test(self.class.synapsefake_options.merge(options))
    end

    # The server the test's platform is on (Synapsefake.server).
    def synapsefake_server
      synapsefake.server
    end

    def after_teardown
      platform = @synapsefake_platform
      if platform
        failure = failures.find { |f| !f.is_a?(::Minitest::Skip) }
        failure.synapsefake_report = platform.failure_report if failure.respond_to?(:synapsefake_report=)
        platform.delete if platform.server.running?
      end
    ensure
      super
    end
  end
end

Minitest::Assertion.prepend(Synapsefake::Minitest::Reported)
Minitest::UnexpectedError.prepend(Synapsefake::Minitest::Reported)

Minitest.after_run do
  text = Synapsefake.summary("test")
  puts text unless text.empty?
end
