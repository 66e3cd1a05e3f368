# frozen_string_literal: true

# The provider's own Ruby SDK, the synapse_pay_rest gem, pointed at the
# example's platform. Skipped unless the gem is installed (with its
# dependency rest-client); this repository does not ship it. The gem has no
# base_url option: its client's http_client takes one (base_url=).
begin
  require "synapse_pay_rest"
rescue LoadError
  nil
end

RSpec.describe "the synapse_pay_rest gem" do
  before { skip "the synapse_pay_rest gem is not installed" unless defined?(SynapsePayRest::Client) }

  let(:client) do
    SynapsePayRest::Client.new(client_id: synapsefake.client_id, client_secret: synapsefake.client_secret,
                               fingerprint: "device-1", ip_address: "127.0.0.1").tap do |c|
      c.http_client.base_url = synapsefake.base_url
    end
  end

  it "signs up a user and moves money that settles with the clock" do
    user = SynapsePayRest::User.create(client: client, logins: [{ email: "ann@example.com" }],
                                       phone_numbers: ["901.111.1111"], legal_names: ["Ann Example"])
    user.authenticate
    expect(SynapsePayRest::User.find(client: client, id: user.id).legal_names).to eq(["Ann Example"])

    # The gem's node and transaction classes pass a Hash where Ruby 3 wants
    # keywords; its API classes (client.nodes, client.transactions) work.
    checking = client.nodes.post(user_id: user.id, payload: { "type" => "DEPOSIT-US",
                                                              "info" => { "nickname" => "Checking" } })["nodes"][0]
    bank = client.nodes.post(user_id: user.id, payload: { "type" => "ACH-US", "info" => {
                               "nickname" => "Landlord", "account_num" => "123456786", "routing_num" => "051000017",
                               "type" => "PERSONAL", "class" => "CHECKING"
                             } })["nodes"][0]
    synapsefake.fund(checking["_id"], 250_00)
    tx = client.transactions.create(user_id: user.id, node_id: checking["_id"], payload: {
                                      "to" => { "type" => "ACH-US", "id" => bank["_id"] },
                                      "amount" => { "amount" => 25.0, "currency" => "USD" },
                                      "extra" => { "ip" => "127.0.0.1" }
                                    })
    expect(tx["recent_status"]["status"]).to eq("CREATED")

    synapsefake.advance("24h")
    user.authenticate
    got = client.transactions.get(user_id: user.id, node_id: checking["_id"], trans_id: tx["_id"])
    expect(got["recent_status"]["status"]).to eq("SETTLED")
    expect(synapsefake.node(checking["_id"])["balance_cents"]).to eq(225_00)

    expect { SynapsePayRest::User.find(client: client, id: "0123456789abcdef01234567") }
      .to raise_error(SynapsePayRest::Error::NotFound, "Unable to locate user.")
  end
end
