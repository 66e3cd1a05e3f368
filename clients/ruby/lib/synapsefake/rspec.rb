# frozen_string_literal: true

# The RSpec helper: require "synapsefake/rspec" (in spec_helper.rb) and each
# example gets a fresh platform as `synapsefake`, made at its first use on
# the process's binary (started once, stopped at exit) and deleted after the
# example:
#
#   RSpec.describe "sign-up" do
#     it "adds a user" do
#       user = synapsefake.add_user(legal_names: ["Ann"])
#       expect(synapsefake.users.map { |u| u["_id"] }).to eq([user["_id"]])
#     end
#
#     it "refuses an overdraft", synapsefake: { funds_check: true, start: "2026-01-05T09:00:00Z" } do
#       ...
#     end
#   end
#
# Metadata `synapsefake:` (a Hash, on an example or a group; an inner one
# wins key by key) gives the platform's fields (start, clock, seed, name,
# client_id, client_secret) and flags of the binary (funds_check: true,
# kyc_review: "manual"...), which run on a binary started with them. With
# `config.synapsefake_tagged_only = true` only examples tagged :synapsefake
# have one. A failed example that used its platform prints the requests the
# platform refused, with the fake's reasons, below its failure. The run ends
# with the binary's start-up figures and the median cost of a platform.
require "rspec/core"
require "synapsefake"

module Synapsefake
  # The RSpec helper (see synapsefake/rspec).
  module RSpec
    # The methods every example group gets.
    module Helpers
      # The example's own platform (a Synapsefake::Platform), made at the
      # first call and deleted after the example.
      def synapsefake
        @synapsefake_platform ||= Synapsefake::RSpec.platform_for(::RSpec.current_example)
      end

      # The server the example's platform is on (Synapsefake.server).
      def synapsefake_server
        synapsefake.server
      end
    end

    class << self
      # The example's options: the `synapsefake:` metadata of its groups,
      # outermost first, then its own, merged.
      def options_for(example)
        chain = example.example_group.parent_groups.reverse.map(&:metadata) + [example.metadata]
        chain.each_with_object({}) do |meta, opts|
          value = meta[:synapsefake]
          opts.merge!(value.transform_keys(&:to_sym)) if value.is_a?(Hash)
        end
      end

      # A platform for the example.
      def platform_for(example)
        raise Synapsefake::Error, "synapsefake: no current example (call synapsefake inside an example)" unless example

        if ::RSpec.configuration.synapsefake_tagged_only && !example.metadata[:synapsefake]
          raise Synapsefake::Error, "synapsefake: #{example.full_description.inspect} is not tagged :synapsefake " \
                                    "(config.synapsefake_tagged_only is on): tag it, or its group, " \
                                    "`synapsefake: true` or `synapsefake: {...}`"
        end
        Synapsefake.platform_for_test(options_for(example))
      end
    end
  end
end

RSpec.configure do |config|
  config.add_setting :synapsefake_tagged_only, default: false
  config.include Synapsefake::RSpec::Helpers

  config.after(:each) do |example|
    platform = @synapsefake_platform
    next unless platform

    if example.exception
      lines = Array(example.metadata[:extra_failure_lines])
      example.metadata[:extra_failure_lines] = lines + ["", *platform.failure_report.lines.map(&:chomp)]
    end
    platform.delete if platform.server.running?
  end

  config.after(:suite) do
    text = Synapsefake.summary("example")
    RSpec.configuration.reporter.message("\n#{text}") unless text.empty?
  end
end
