# frozen_string_literal: true

require "openssl"

# Money moving: an ACH transfer that settles with the clock, returns, and a webhook.
RSpec.describe "money" do
  it "settles an ACH debit the next business day" do
    user_id = account[:user]["_id"]
    checking = account[:checking]["_id"]
    tx = api.transfer(user_id, checking, "ACH-US", account[:bank]["_id"], 10.00)
    expect(tx["recent_status"]["status"]).to eq("CREATED")

    synapsefake.advance("24h") # the platform starts on a Tuesday, 10:00 in New York
    api.sign_in(account[:user]) # the key lived 2 hours: renew it with the refresh token

    got = api.ok("GET", "/users/#{user_id}/nodes/#{checking}/trans/#{tx["_id"]}")
    expect(got["recent_status"]["status"]).to eq("SETTLED")
    expect(synapsefake.node(checking)["balance_cents"]).to eq(240_00)
  end

  %w[R01 R02].each do |code|
    it "returns a settled transfer with #{code}" do
      user_id = account[:user]["_id"]
      checking = account[:checking]["_id"]
      tx = api.transfer(user_id, checking, "ACH-US", account[:bank]["_id"], 25.00)
      expect(synapsefake.settle(tx["_id"])["status"]).to eq("SETTLED")
      expect(synapsefake.node(checking)["balance_cents"]).to eq(225_00)

      returned = synapsefake.return_transaction(tx["_id"], code)
      expect([returned["status"], returned["code"]]).to eq(["RETURNED", code])

      # The app sees the return over the API, and the money is back.
      got = api.ok("GET", "/users/#{user_id}/nodes/#{checking}/trans/#{tx["_id"]}")
      expect(got["recent_status"]["status"]).to eq("RETURNED")
      expect(synapsefake.node(checking)["balance_cents"]).to eq(250_00)
    end
  end

  it "refuses an overdraft on a binary started with -funds-check", synapsefake: { funds_check: true } do
    r = api.call("POST", "/users/#{account[:user]["_id"]}/nodes/#{account[:checking]["_id"]}/trans", {
                   "to" => { "type" => "ACH-US", "id" => account[:bank]["_id"] },
                   "amount" => { "amount" => 300.00, "currency" => "USD" }, "extra" => { "ip" => "127.0.0.1" }
                 })
    expect([r.status, r.json["error"]["code"]]).to eq([409, "insufficient_funds"])
  end

  it "delivers a subscription's webhook, signed with the platform's secret" do
    receiver = Examples::Receiver.new
    sub = api.ok("POST", "/subscriptions", { "scope" => ["USERS|POST", "NODES|POST"], "url" => receiver.url })
    expect(sub["is_active"]).to be(true)

    user = api.sign_up
    hook = synapsefake.wait_webhook(object_id: user["_id"], function: "USERS|POST", timeout: "2s")
    expect(hook["object_type"]).to eq("USER")
    expect(hook["payload"]["_rest"]["_id"]).to eq(user["_id"])

    synapsefake.flush # every delivery in flight has reached the receiver
    posted = receiver.hooks.select { |h| h.body["_id"]["$oid"] == user["_id"] }
    expect(posted.size).to eq(1)
    # HMAC-SHA256 of "<object id>+<client id>" with the client secret.
    want = OpenSSL::HMAC.hexdigest("SHA256", synapsefake.client_secret, "#{user["_id"]}+#{synapsefake.client_id}")
    expect(posted[0].headers["x-synapse-signature-sha256"]).to eq(want)
  ensure
    receiver&.close
  end
end
