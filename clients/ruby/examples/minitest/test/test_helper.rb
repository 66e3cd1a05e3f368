# frozen_string_literal: true

# The Minitest example suite, from this directory:
#
#   ruby -Itest -e 'Dir.glob("test/**/*_test.rb") { |f| require_relative f }'
#
# Synapsefake::Minitest gives every test its own platform as `synapsefake`
# (on one binary per process, started at the first test that asks); this
# base class adds the app's side, the API over Net::HTTP.
require "minitest/autorun"
require "synapsefake/minitest"
require_relative "../../support/api"

class ExampleTest < Minitest::Test
  include Synapsefake::Minitest

  # The API of this test's platform.
  def api
    @api ||= Examples::API.new(synapsefake)
  end

  # A signed-up user with a funded checking node and a bank account.
  def account
    @account ||= api.account(synapsefake)
  end

  def teardown
    @api&.close
    super
  end
end
