# frozen_string_literal: true

# The RSpec example suite: `rspec` in this directory. synapsefake/rspec
# gives every example its own platform as `synapsefake` (on one binary per
# process, started at the first example that asks); these helpers add the
# app's side, the API over Net::HTTP.
require "synapsefake/rspec"
require_relative "../../support/api"

module ExampleHelpers
  # The API of this example's platform.
  def api
    @api ||= Examples::API.new(synapsefake)
  end

  # A signed-up user with a funded checking node and a bank account.
  def account
    @account ||= api.account(synapsefake)
  end
end

RSpec.configure do |config|
  config.include ExampleHelpers
  config.after { @api&.close }
end
