# frozen_string_literal: true

require_relative "test_helper"

# The provider's own Ruby SDK, the synapse_pay_rest gem, pointed at the
# test's platform. Skipped unless the gem is installed (with its dependency
# rest-client); this repository does not ship it. The gem has no base_url
# option: its client's http_client takes one (base_url=).
begin
  require "synapse_pay_rest"
rescue LoadError
  nil
end

class SDKTest < ExampleTest
  def setup
    skip "the synapse_pay_rest gem is not installed" unless defined?(SynapsePayRest::Client)
    @client = SynapsePayRest::Client.new(client_id: synapsefake.client_id, client_secret: synapsefake.client_secret,
                                         fingerprint: "device-1", ip_address: "127.0.0.1")
    @client.http_client.base_url = synapsefake.base_url
  end

  def test_sign_up_and_money_that_settles_with_the_clock
    user = SynapsePayRest::User.create(client: @client, logins: [{ email: "ann@example.com" }],
                                       phone_numbers: ["901.111.1111"], legal_names: ["Ann Example"])
    user.authenticate
    assert_equal ["Ann Example"], SynapsePayRest::User.find(client: @client, id: user.id).legal_names

    # The gem's node and transaction classes pass a Hash where Ruby 3 wants
    # keywords; its API classes (client.nodes, client.transactions) work.
    checking = @client.nodes.post(user_id: user.id, payload: { "type" => "DEPOSIT-US",
                                                               "info" => { "nickname" => "Checking" } })["nodes"][0]
    bank = @client.nodes.post(user_id: user.id, payload: { "type" => "ACH-US", "info" => {
                                "nickname" => "Landlord", "account_num" => "123456786", "routing_num" => "051000017",
                                "type" => "PERSONAL", "class" => "CHECKING"
                              } })["nodes"][0]
    synapsefake.fund(checking["_id"], 250_00)
    tx = @client.transactions.create(user_id: user.id, node_id: checking["_id"], payload: {
                                       "to" => { "type" => "ACH-US", "id" => bank["_id"] },
                                       "amount" => { "amount" => 25.0, "currency" => "USD" },
                                       "extra" => { "ip" => "127.0.0.1" }
                                     })
    assert_equal "CREATED", tx["recent_status"]["status"]

    synapsefake.advance("24h")
    user.authenticate
    got = @client.transactions.get(user_id: user.id, node_id: checking["_id"], trans_id: tx["_id"])
    assert_equal "SETTLED", got["recent_status"]["status"]
    assert_equal 225_00, synapsefake.node(checking["_id"])["balance_cents"]

    err = assert_raises(SynapsePayRest::Error::NotFound) do
      SynapsePayRest::User.find(client: @client, id: "0123456789abcdef01234567")
    end
    assert_equal "Unable to locate user.", err.message
  end
end
