# frozen_string_literal: true

require_relative "test_helper"

# Every method of Synapsefake::Control against the real binary: each call
# reaches its route (docs/control-api.md) and answers what the route
# answers; a refusal is a ControlError with the envelope's fields.
class ControlTest < Minitest::Test
  def self.server
    @server ||= Synapsefake.start(bin: TestSupport.real_binary)
  end

  WORLD = {
    "users" => [{
      "name" => "ann", "legal_names" => ["Ann Example"], "permission" => "SEND-AND-RECEIVE",
      "nodes" => [
        { "name" => "checking", "balance" => "500.00",
          "subnets" => [{ "name" => "card", "account_class" => "CARD", "status" => "ACTIVE" }] },
        { "name" => "bank", "type" => "ACH-US", "account_num" => "123456789", "routing_num" => "021000021" }
      ]
    }],
    "transactions" => [
      { "name" => "created", "from" => "checking", "to" => "bank", "amount" => 10 },
      { "name" => "created2", "from" => "checking", "to" => "bank", "amount" => 11 },
      { "name" => "created3", "from" => "checking", "to" => "bank", "amount" => 12 },
      { "name" => "created4", "from" => "checking", "to" => "bank", "amount" => 13 },
      { "name" => "settled", "from" => "bank", "to" => "checking", "amount" => 20, "date" => "-3d",
        "status" => "SETTLED" },
      { "name" => "returned", "from" => "bank", "to" => "checking", "amount" => 30, "date" => "-2d",
        "status" => "RETURNED", "code" => "R01" }
    ]
  }.freeze

  def setup
    @platform = self.class.server.create_platform
    @ctl = @platform.control
    @world = @ctl.load_world(WORLD)
  end

  def teardown
    @platform.delete
  end

  def ids(kind)
    @world.fetch(kind)
  end

  def test_users_nodes_subnets_keys
    user = @ctl.add_user(email: "ann@example.com", phone_numbers: ["901.111.1111"], legal_names: ["Ann"],
                         fingerprint: "fp-1", supp_id: "s1", is_business: false, permission: "SEND-AND-RECEIVE")
    assert_equal [["Ann"], "SEND-AND-RECEIVE"], [user["legal_names"], user["permission"]]
    assert_match(/\Arefresh_/, user["refresh_token"])
    assert_equal [user["_id"], ids("users")["ann"]], @ctl.users.map { |u| u["_id"] }
    assert_equal [user["_id"]], @ctl.users(limit: 1).map { |u| u["_id"] }
    assert_equal user["_id"], @ctl.user(user["_id"])["_id"]

    node = @ctl.add_node(user["_id"], type: "DEPOSIT-US", nickname: "Checking", balance_cents: 1000, supp_id: "n1")
    assert_equal ["Checking", 1000], [node["nickname"], node["balance_cents"]]
    bank = @ctl.add_node(user["_id"], type: "ACH-US", account_num: "123456786", routing_num: "051000017")
    assert_equal [node["_id"], bank["_id"]], @ctl.user_nodes(user["_id"]).map { |n| n["_id"] }
    assert_equal 3500, @ctl.fund(node["_id"], 2500)["balance_cents"]
    assert_equal 3500, @ctl.node(node["_id"])["available_cents"]

    subnet = @ctl.add_subnet(user["_id"], node["_id"], nickname: "Card", account_class: "CARD", status: "ACTIVE")
    assert_equal %w[CARD ACTIVE], [subnet["account_class"], subnet["status"]]
    assert_match(/\Aoauth_/, @ctl.oauth_key(user["_id"], "fp-1"))
    assert_match(/\Aoauth_/, @ctl.oauth_key(user["_id"], "fp-2", scopes: ["USER|GET"]))
    assert_nil @ctl.force_mfa(user["_id"])
    assert_equal ["SEND-AND-RECEIVE", "LOCKED"],
                 [user["permission"], @ctl.set_permission(user["_id"], "LOCKED")["permission"]]
    assert_equal "ann", @world["users"].keys.first
  end

  def test_mfa_pin_after_a_new_device
    user = @ctl.add_user(phone_numbers: ["901.111.1111"])
    api = TestAPI.new(@platform, fingerprint: "device-2")
    status, = api.call("POST", "/oauth/#{user["_id"]}", { "refresh_token" => user["refresh_token"],
                                                          "phone_number" => "901.111.1111" })
    assert_equal 202, status
    assert_match(/\A\d{6}\z/, @ctl.mfa_pin(user["_id"]))
  end

  def test_document_reviews
    user = @ctl.add_user(documents: [
                           { kind: "virtual", type: "SSN", value: "2222", status: "REVIEWING" },
                           { kind: "physical", type: "GOVT_ID", value: "data:image/png;base64,SUQ=", status: "REVIEWING" }
                         ])
    subs = user["documents"][0]["sub_documents"]
    assert_equal ["SUBMITTED|REVIEWING"] * 2, subs.map { |d| d["status"] }
    after = @ctl.review_document(user["_id"], subs[0]["id"], "VALID")
    assert_equal "SUBMITTED|VALID", after["documents"][0]["sub_documents"][0]["status"]
    after = @ctl.review_documents(user["_id"], "VALID")
    assert_equal "SEND-AND-RECEIVE", after["permission"]
    assert_equal "SEND|RECEIVE|1000|DAILY", after["documents"][0]["permission_scope"]
  end

  def test_subscriptions_and_worlds
    sub = @ctl.add_subscription("https://app.example/hooks", scopes: ["USERS|POST"])
    assert_equal [["USERS|POST"], true], [sub["scope"], sub["is_active"]]
    assert_equal %w[bank checking], ids("nodes").keys.sort
  end

  def test_the_clock
    at = Synapsefake::DEFAULT_START
    assert_equal at, @ctl.now
    assert_equal at + 86_400, @ctl.advance("24h")
    assert_equal at + 86_400 + 90, @ctl.advance(90)
    assert_equal at + 86_400 + 90.5, @ctl.advance(Rational(1, 2))
    assert_operator @ctl.advance_to_next_business_day, :>, at + 86_400 + 90.5
    assert_kind_of Time, @ctl.advance_to_cutoff("ach")
    err = assert_raises(ArgumentError) { @ctl.advance(nil) }
    assert_match(/a duration is a Go duration String/, err.message)
  end

  def test_transaction_moves
    tx = ids("transactions")
    assert_equal "CREATED", @ctl.transaction(tx["created"])["status"]
    assert_equal "SETTLED", @ctl.settle(tx["created"])["status"]
    returned = @ctl.return_transaction(tx["created"], "R02")
    assert_equal %w[RETURNED R02], [returned["status"], returned["code"]]
    assert_equal "QUEUED-BY-SYNAPSE", @ctl.queue(tx["created2"])["status"]
    assert_equal "CREATED", @ctl.release(tx["created2"])["status"]
    assert_equal "CANCELED", @ctl.cancel(tx["created2"], code: "Customer asked")["status"]
    assert_equal "PROCESSING-DEBIT", @ctl.advance_transaction(tx["created3"], "PROCESSING-DEBIT")["status"]
    scheduled = @ctl.schedule_return(tx["created4"], "R01", after: "1h")
    assert_equal tx["created4"], scheduled["_id"]
    dishonored = @ctl.dishonor_return(tx["returned"], "R68")
    assert_equal tx["returned"], dishonored["_id"]
    contested = @ctl.contest_dishonor(tx["returned"], "R73")
    assert_equal tx["returned"], contested["_id"]
    assert_equal [tx["created4"], tx["created3"]],
                 @ctl.transactions(node_id: ids("nodes")["checking"], limit: 2).map { |t| t["_id"] }
    assert_equal 6, @ctl.transactions(user_id: ids("users")["ann"]).size
    assert_raises(ArgumentError) { @ctl.transactions }
  end

  def test_disputes_refused_on_a_transaction_not_disputed
    tx = ids("transactions")["settled"]
    %i[win_dispute lose_dispute].each do |name|
      err = assert_raises(Synapsefake::ControlError, name) { @ctl.public_send(name, tx) }
      assert_equal ["POST", "#{@ctl.control_root}/transactions/#{tx}/dispute", 409],
                   [err.http_method, err.path, err.status], name
    end
  end

  def test_cards
    card = ids("subnets")["card"]
    auth = @ctl.card_authorization(card, 1500, merchant: "Coffee", foreign: false, cash: false)
    assert_equal 1500, auth["amount_cents"]
    assert_equal 2000, @ctl.increment_authorization(auth["_id"], 500)["amount_cents"]
    assert_equal auth["_id"], @ctl.reverse_authorization(auth["_id"], amount_cents: 200)["_id"]
    assert_equal auth["_id"], @ctl.clear_authorization(auth["_id"])["_id"]
    declined = @ctl.card_authorization(card, 100, decline_with: "IR05")
    assert_equal %w[RETURNED IR05], [declined["status"], declined["code"]]
    assert_equal 700, @ctl.force_post(card, 700, merchant: "Shop")["amount_cents"]
    assert_equal 300, @ctl.refund_card(card, 300, merchant: "Shop")["amount_cents"]
  end

  def test_return_rules_and_faults
    rules = @ctl.add_return_rule(code: "R01", amount_cents: 4242, note: "bounce", after: 3600)
    assert_equal [["R01", 4242]], rules.map { |r| [r["code"], r["amount_cents"]] }
    assert_equal 1, @ctl.return_rules.size
    assert_nil @ctl.clear_return_rules
    assert_empty @ctl.return_rules

    assert_nil @ctl.fail_next("GET", "/users", "500", times: 1)
    api = TestAPI.new(@platform)
    assert_equal 500, api.call("GET", "/users").first
    assert_equal 200, api.call("GET", "/users").first
    assert_nil @ctl.slow_next("GET", "/users", "1ms")
    assert_equal 200, api.call("GET", "/users").first
  end

  def test_webhooks_chaos_journal_state
    user = @ctl.add_user
    assert_operator @ctl.flush, :>=, 1
    hook = @ctl.wait_webhook(object_id: user["_id"], function: "USERS|POST", timeout: 1)
    assert_equal "USER", hook["object_type"]
    assert_equal hook, @ctl.webhooks.find { |w| w["object_id"] == user["_id"] }
    assert_equal 1, @ctl.webhooks(limit: 1).size
    assert_nil @ctl.reset_webhooks
    assert_empty @ctl.webhooks
    err = assert_raises(Synapsefake::ControlError) { @ctl.wait_webhook(object_id: "nope", timeout: "10ms") }
    assert_equal ["404", "no_matching_webhook", 404], [err.error_code, err.code, err.status]

    chaos = @ctl.set_chaos({ "seed" => 7, "default" => { "duplicate" => 0.5 } })
    assert_equal 0.5, chaos["default"]["duplicate"]
    assert_equal chaos, @ctl.chaos
    assert_kind_of Hash, @ctl.clear_chaos

    TestAPI.new(@platform).call("GET", "/users")
    assert_equal ["/v3.1/users"], @ctl.requests.map { |r| r["path"] }
    assert_nil @ctl.reset_requests
    assert_empty @ctl.requests

    state = @ctl.state
    @ctl.add_user
    assert_nil @ctl.restore(state)
    assert_equal @ctl.users.size, state_users(@ctl.state)
    other = self.class.server.create_platform
    assert_nil other.control.restore(state, copy: true)
    assert_equal @ctl.users.map { |u| u["_id"] }, other.users.map { |u| u["_id"] }
    other.delete
    assert_nil @ctl.reset
    assert_empty @ctl.users
  end

  def state_users(state)
    @ctl.users(limit: 1000).size.tap { assert_kind_of Hash, state }
  end

  def test_platforms
    server = self.class.server
    root = server.control
    info = root.add_platform(client_id: "p-#{Process.pid}", start: Time.utc(2030), clock: "manual", seed: 9, name: "P")
    assert_equal ["p-#{Process.pid}", "P"], [info["client_id"], info["name"]]
    assert_equal info, root.get_platform(info["client_id"])
    assert_includes root.platforms.map { |p| p["client_id"] }, info["client_id"]
    # A platform's Control reaches the server's platforms routes too.
    assert_equal root.platforms, @ctl.platforms
    assert_equal Time.utc(2030), root.platform(info["client_id"]).now
    assert_nil @ctl.delete_platform(info["client_id"])
    err = assert_raises(Synapsefake::ControlError) { root.get_platform(info["client_id"]) }
    assert_equal ["404", "404", "unable_to_locate_platform"], [err.error_code, err.http_code, err.code]
  end

  def test_a_refusal_is_a_control_error_with_the_envelope
    user = @ctl.add_user
    err = assert_raises(Synapsefake::ControlError) { @ctl.settle("0123456789abcdef01234567") }
    assert_equal ["404", "404", "unable_to_locate_transaction", "Unable to locate transaction.", 404, "POST"],
                 [err.error_code, err.http_code, err.code, err.reason, err.status, err.http_method]
    assert_equal "#{@ctl.control_root}/transactions/0123456789abcdef01234567/settle", err.path
    assert_equal "POST #{err.path}: HTTP 404, error_code 404, unable_to_locate_transaction: Unable to locate transaction.",
                 err.message
    assert_equal "404", err.envelope["error_code"]

    err = assert_raises(Synapsefake::ControlError) { @ctl.advance("-1h") }
    assert_equal ["200", "invalid_duration", 400], [err.error_code, err.code, err.status]
    assert_equal 'duration must be a non-negative Go duration such as "90m" or "24h", got "-1h".', err.reason
    assert_equal user["_id"], @ctl.user(user["_id"])["_id"] # a refusal changes nothing

    err = assert_raises(Synapsefake::ControlError) { @ctl.call("POST", "users", { "nope" => 1 }) }
    assert_equal %w[200 unknown_field], [err.error_code, err.code]
    err = assert_raises(Synapsefake::ControlError) { @ctl.call("GET", "no/such/route") }
    assert_equal ["404", "not_found"], [err.error_code, err.code]
    assert_kind_of Synapsefake::Error, err
  end

  def test_hints_in_the_helpers_words
    # A refused API request: its reason in the journal names the platform's gateway as the helpers call it.
    uri = URI("#{@platform.base_url}/users")
    req = Net::HTTP::Get.new(uri, "X-SP-GATEWAY" => "#{@platform.client_id}|not-the-secret")
    assert_equal "401", Net::HTTP.start(uri.host, uri.port) { |http| http.request(req) }.code
    reason = @ctl.requests.last["reason"]
    assert_includes reason, "synapsefake.gateway is this fake's"

    # A wait on the frozen clock: the advance that makes the transfer due, as the helpers call it.
    err = assert_raises(Synapsefake::ControlError) do
      @ctl.wait_webhook(object_id: ids("transactions")["created"], status: "SETTLED", timeout: 0)
    end
    assert_equal "no_matching_webhook", err.code
    assert_match(/\(call synapsefake\.advance\("\d+[hms]"\)\)/, err.reason)
    refute_match(/Advance\(|curl|POST \/_fake/, "#{reason}\n#{err.reason}")
  end

  def test_the_platform_reaches_every_control_method
    methods = Synapsefake::Control.public_instance_methods(false) - %i[origin control_root token timeout inspect]
    missing = methods.reject { |m| @platform.respond_to?(m) }
    assert_empty missing
    assert_equal @ctl.now, @platform.now
  end

  def test_every_method_is_called_in_this_file
    methods = Synapsefake::Control.public_instance_methods(false) - %i[origin control_root token timeout inspect]
    source = File.read(__FILE__)
    assert_empty methods.reject { |m| source.match?(/(\.|%i\[[^\]]*)#{Regexp.escape(m.to_s)}\b(?!:)/) }
  end

  def test_values
    assert_equal "24h", Synapsefake::Values.duration("24h")
    assert_equal "90000ms", Synapsefake::Values.duration(90)
    assert_equal "1500ms", Synapsefake::Values.duration(1.5)
    assert_raises(ArgumentError) { Synapsefake::Values.duration(true) }
    assert_equal Time.utc(2026, 4, 14, 14, 0, 0.123r), Synapsefake::Values.time(1_776_175_200_123)
    assert_equal "a%2Fb%20c", Synapsefake::Values.seg("a/b c")
  end

  def test_a_token_is_sent
    server = Synapsefake.start(bin: TestSupport.real_binary, token: "s3cret")
    assert_equal Synapsefake::DEFAULT_START, server.control.now
    err = assert_raises(Synapsefake::ControlError) { Synapsefake::Control.new(server.url).now }
    assert_equal 401, err.status
    assert_equal Synapsefake::DEFAULT_START, server.create_platform.now
  ensure
    server&.stop
  end
end
