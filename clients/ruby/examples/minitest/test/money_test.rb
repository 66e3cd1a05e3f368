# frozen_string_literal: true

require "openssl"
require_relative "test_helper"

# Money moving: an ACH transfer that settles with the clock, returns, and a webhook.
class MoneyTest < ExampleTest
  def test_an_ach_debit_settles_the_next_business_day
    user_id = account[:user]["_id"]
    checking = account[:checking]["_id"]
    tx = api.transfer(user_id, checking, "ACH-US", account[:bank]["_id"], 10.00)
    assert_equal "CREATED", tx["recent_status"]["status"]

    synapsefake.advance("24h") # the platform starts on a Tuesday, 10:00 in New York
    api.sign_in(account[:user]) # the key lived 2 hours: renew it with the refresh token

    got = api.ok("GET", "/users/#{user_id}/nodes/#{checking}/trans/#{tx["_id"]}")
    assert_equal "SETTLED", got["recent_status"]["status"]
    assert_equal 240_00, synapsefake.node(checking)["balance_cents"]
  end

  %w[R01 R02].each do |code|
    define_method("test_a_settled_transfer_comes_back_returned_#{code}") do
      user_id = account[:user]["_id"]
      checking = account[:checking]["_id"]
      tx = api.transfer(user_id, checking, "ACH-US", account[:bank]["_id"], 25.00)
      assert_equal "SETTLED", synapsefake.settle(tx["_id"])["status"]
      assert_equal 225_00, synapsefake.node(checking)["balance_cents"]

      returned = synapsefake.return_transaction(tx["_id"], code)
      assert_equal ["RETURNED", code], [returned["status"], returned["code"]]

      # The app sees the return over the API, and the money is back.
      got = api.ok("GET", "/users/#{user_id}/nodes/#{checking}/trans/#{tx["_id"]}")
      assert_equal "RETURNED", got["recent_status"]["status"]
      assert_equal 250_00, synapsefake.node(checking)["balance_cents"]
    end
  end

  def test_an_overdraft_is_refused_on_a_binary_started_with_funds_check
    synapsefake(funds_check: true) # this test's options, at its platform's first use
    r = api.call("POST", "/users/#{account[:user]["_id"]}/nodes/#{account[:checking]["_id"]}/trans", {
                   "to" => { "type" => "ACH-US", "id" => account[:bank]["_id"] },
                   "amount" => { "amount" => 300.00, "currency" => "USD" }, "extra" => { "ip" => "127.0.0.1" }
                 })
    assert_equal [409, "insufficient_funds"], [r.status, r.json["error"]["code"]]
  end

  def test_a_subscription_gets_the_webhook_signed_with_the_platforms_secret
    receiver = Examples::Receiver.new
    sub = api.ok("POST", "/subscriptions", { "scope" => ["USERS|POST", "NODES|POST"], "url" => receiver.url })
    assert_equal true, sub["is_active"]

    user = api.sign_up
    hook = synapsefake.wait_webhook(object_id: user["_id"], function: "USERS|POST", timeout: "2s")
    assert_equal "USER", hook["object_type"]
    assert_equal user["_id"], hook["payload"]["_rest"]["_id"]

    synapsefake.flush # every delivery in flight has reached the receiver
    posted = receiver.hooks.select { |h| h.body["_id"]["$oid"] == user["_id"] }
    assert_equal 1, posted.size
    # HMAC-SHA256 of "<object id>+<client id>" with the client secret.
    want = OpenSSL::HMAC.hexdigest("SHA256", synapsefake.client_secret, "#{user["_id"]}+#{synapsefake.client_id}")
    assert_equal want, posted[0].headers["x-synapse-signature-sha256"]
  ensure
    receiver&.close
  end
end
