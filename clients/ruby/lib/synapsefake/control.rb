# frozen_string_literal: true

require "json"
require "net/http"
require "time"
require "uri"

module Synapsefake
  # The base of the gem's own errors.
  class Error < StandardError; end

  # A refusal of the control API: the API's error envelope and the HTTP status.
  #
  # error_code and http_code are the envelope's strings ("404", "404"), code
  # its error.code ("unable_to_locate_transaction"), reason its error.en: why
  # the fake refused. status is the HTTP status, envelope the whole decoded
  # body (nil when it was not JSON), http_method and path the call.
  class ControlError < Error
    attr_reader :http_method, :path, :status, :envelope, :error_code, :http_code, :code, :reason

    def initialize(http_method, path, status, envelope, text = "")
      @http_method = http_method
      @path = path
      @status = status
      @envelope = envelope.is_a?(Hash) ? envelope : nil
      env = @envelope || {}
      err = env["error"].is_a?(Hash) ? env["error"] : {}
      @error_code = env["error_code"]
      @http_code = env["http_code"]
      @code = err["code"]
      @reason = err["en"] || text
      super("#{http_method} #{path}: HTTP #{status}, error_code #{@error_code}, #{@code}: #{@reason}")
    end
  end

  # Conversions between Ruby's values and the control API's.
  module Values
    module_function

    # A Go duration ("24h") from a String, or from seconds (an Integer, a
    # Float, a Rational, anything with to_f): 90 is "90000ms".
    def duration(value)
      return value if value.is_a?(String)
      if value.nil? || !(value.is_a?(Numeric) || value.respond_to?(:to_f))
        raise ArgumentError, "a duration is a Go duration String (\"24h\") or seconds (86_400), not #{value.inspect}"
      end

      "#{(value.to_f * 1000).round}ms"
    end

    # A Time from milliseconds since the epoch, in UTC.
    def time(ms)
      Time.at(ms / 1000, ms % 1000, :millisecond).utc
    end

    # An RFC 3339 instant from a Time (a String, such as "default", is kept).
    def instant(value)
      return value.utc.iso8601(3) if value.respond_to?(:utc) && value.respond_to?(:iso8601)

      value.to_s
    end

    # The entries whose value is not nil, as a request body.
    def fields(**kw)
      kw.reject { |_, v| v.nil? }.transform_keys(&:to_s)
    end

    # An id as one path segment.
    def seg(id)
      URI.encode_www_form_component(id.to_s).gsub("+", "%20")
    end
  end

  # The control API (/_fake/, docs/control-api.md) of one synapsefake
  # server, or of one of its platforms: every route as a method, named as
  # the Python client names them, optional fields as keyword arguments.
  #
  #   ctl = Synapsefake::Control.new("http://127.0.0.1:8080/v3.1")
  #   user = ctl.add_user(legal_names: ["Ada Lovelace"])
  #   node = ctl.add_node(user["_id"], nickname: "Checking", balance_cents: 10_000)
  #   ctl.advance("24h")          # => the Time after
  #
  # Answers are the decoded JSON (Hashes with String keys): a user, a node, a
  # transaction, a list; times of the clock as Time. A refusal raises
  # ControlError. Amounts are integer cents; durations Go durations ("90m")
  # or seconds. Each thread keeps one connection per server.
  class Control
    TOKEN_HEADER = "X-Fake-Control-Token"
    # The gem names itself in this header: the fake phrases the hints of
    # its answers (a failed wait's, the journal's reasons) as the helpers'
    # calls, synapsefake.advance("1h"), rather than Go's.
    CLIENT_HEADER = "X-Synapsefake-Client"
    CLIENT = "ruby"

    attr_reader :origin, :control_root, :token, :timeout

    # url is the server's origin (http://127.0.0.1:8080), the API's base URL
    # (.../v3.1) or a platform's control_url (.../_fake/platforms/{client_id}).
    # token is the server's -control-token; timeout bounds each call (seconds).
    def initialize(url, token: nil, timeout: 10)
      root = url.to_s.sub(%r{/+\z}, "").sub(%r{/v3\.1\z}, "")
      uri = URI(root)
      raise ArgumentError, "synapsefake: #{url.inspect} is not an http URL" unless uri.is_a?(URI::HTTP) && uri.host

      @uri = uri
      @origin = "#{uri.scheme}://#{uri.host.include?(":") ? "[#{uri.host}]" : uri.host}:#{uri.port}"
      @control_root = uri.path.start_with?("/_fake") ? uri.path : "/_fake"
      @token = token
      @timeout = timeout
    end

    # Calls one control route (path under the control root, e.g. "users")
    # and answers the decoded JSON. body is a Hash or Array (sent as JSON) or
    # a String (sent as it is). A refusal raises ControlError.
    def call(http_method, path, body = nil, query: nil, timeout: nil)
      full = "#{@control_root}/#{path.to_s.sub(%r{\A/+}, "")}"
      query = (query || {}).reject { |_, v| v.nil? }
      full += "?#{URI.encode_www_form(query)}" unless query.empty?
      req = Net::HTTPGenericRequest.new(http_method.to_s.upcase, !body.nil?, true, full)
      req["Accept"] = "application/json"
      req[CLIENT_HEADER] = CLIENT
      req[TOKEN_HEADER] = @token if @token
      unless body.nil?
        req["Content-Type"] = "application/json"
        req.body = body.is_a?(String) ? body : JSON.generate(body)
      end
      res = request(req, timeout || @timeout)
      text = res.body.to_s
      answer = begin
        text.empty? ? nil : JSON.parse(text)
      rescue JSON::ParserError
        nil
      end
      raise ControlError.new(req.method, full, res.code.to_i, answer, text) unless res.code == "200"
      raise ControlError.new(req.method, full, 200, nil, "the answer is not JSON: #{text[0, 200]}") if answer.nil?

      answer
    end

    # --- users, nodes, subnets, keys ---

    # AddUser: a user with its refresh token; every field is optional.
    # documents are sub-documents under one base document, each
    # {kind: "physical"|"social"|"virtual", type: "SSN", value: "2222",
    # status: "VALID"}; without a status one goes under review.
    def add_user(email: nil, phone_numbers: nil, legal_names: nil, fingerprint: nil, supp_id: nil,
                 is_business: nil, permission: nil, documents: nil)
      post("users", Values.fields(email: email, phone_numbers: phone_numbers, legal_names: legal_names,
                                  fingerprint: fingerprint, supp_id: supp_id, is_business: is_business,
                                  permission: permission, documents: documents))["user"]
    end

    # The newest users, newest first (at most limit, 100 by default).
    def users(limit: nil)
      get("users", limit: limit)["users"]
    end

    # User: one user.
    def user(user_id)
      get("users/#{Values.seg(user_id)}")["user"]
    end

    # The user's active nodes, oldest first, with balance_cents and available_cents.
    def user_nodes(user_id)
      get("users/#{Values.seg(user_id)}/nodes")["nodes"]
    end

    # AddNode: a node of the user (DEPOSIT-US by default), funded with balance_cents.
    def add_node(user_id, type: nil, nickname: nil, balance_cents: nil, account_num: nil, routing_num: nil,
                 supp_id: nil)
      post("users/#{Values.seg(user_id)}/nodes", Values.fields(
        type: type, nickname: nickname, balance_cents: balance_cents, account_num: account_num,
        routing_num: routing_num, supp_id: supp_id
      ))["node"]
    end

    # Node: one node, its current (balance_cents) and available (available_cents) balance.
    def node(node_id)
      get("nodes/#{Values.seg(node_id)}")["node"]
    end

    # Fund: adds amount_cents to the node at once (no transaction, no webhook); the node after.
    def fund(node_id, amount_cents)
      post("nodes/#{Values.seg(node_id)}/fund", { "amount_cents" => amount_cents })["node"]
    end

    # The newest transactions of a user (sent or received) or of a node, newest first.
    def transactions(user_id: nil, node_id: nil, limit: nil)
      raise ArgumentError, "give exactly one of user_id: and node_id:" if user_id.nil? == node_id.nil?

      owner = user_id ? "users/#{Values.seg(user_id)}" : "nodes/#{Values.seg(node_id)}"
      get("#{owner}/transactions", limit: limit)["transactions"]
    end

    # AddSubnet: an account number (CHECKING, SAVINGS) or a card (CARD), numbers in full.
    def add_subnet(user_id, node_id, nickname: nil, account_class: nil, status: nil)
      post("users/#{Values.seg(user_id)}/nodes/#{Values.seg(node_id)}/subnets",
           Values.fields(nickname: nickname, account_class: account_class, status: status))["subnet"]
    end

    # OAuthKey: a key for the user on the fingerprint (every user-level scope by
    # default); X-SP-USER is "key|fingerprint".
    def oauth_key(user_id, fingerprint, scopes: nil)
      post("users/#{Values.seg(user_id)}/oauth", Values.fields(fingerprint: fingerprint, scopes: scopes))["oauth_key"]
    end

    # ForceMFA: the user's next sign-in asks for a PIN.
    def force_mfa(user_id)
      post("users/#{Values.seg(user_id)}/force-mfa")
      nil
    end

    # MFAPin: the PIN the fake sent the user.
    def mfa_pin(user_id)
      get("users/#{Values.seg(user_id)}/mfa-pin")["pin"]
    end

    # SetPermission: the platform's change of a user's permission; the user after.
    def set_permission(user_id, permission)
      post("users/#{Values.seg(user_id)}/permission", { "permission" => permission })["user"]
    end

    # ReviewDocument: one sub-document of the user (document_id is the
    # sub-document's id) takes status (VALID, INVALID, BLACKLIST, REVIEWING,
    # MFA_PENDING, SUBMITTED or the wire's "SUBMITTED|VALID"); the user after.
    def review_document(user_id, document_id, status)
      post("users/#{Values.seg(user_id)}/documents/#{Values.seg(document_id)}/review",
           { "status" => status })["user"]
    end

    # ReviewDocuments: every sub-document of the user still under review takes status; the user after.
    def review_documents(user_id, status)
      post("users/#{Values.seg(user_id)}/documents/review", { "status" => status })["user"]
    end

    # AddSubscription: webhooks for url (all eight scopes by default).
    def add_subscription(url, scopes: nil)
      post("subscriptions", Values.fields(url: url, scopes: scopes))["subscription"]
    end

    # LoadWorld: a world file (a Hash, or its JSON as a String); answers names to ids.
    def load_world(world)
      call("POST", "world", world)["world"]
    end

    # --- the clock ---

    # The fake's time, as a Time (UTC).
    def now
      Values.time(get("clock")["now"])
    end

    # Advance: moves the clock (and everything due) by a Go duration ("24h")
    # or seconds; answers the Time after.
    def advance(duration)
      Values.time(post("clock/advance", { "duration" => Values.duration(duration) })["now"])
    end

    # AdvanceToNextBusinessDay; answers the Time after.
    def advance_to_next_business_day
      Values.time(post("clock/next-business-day")["now"])
    end

    # AdvanceToCutoff: "ach", "same-day" or "wire"; answers the Time after.
    def advance_to_cutoff(cutoff)
      Values.time(post("clock/cutoff", { "cutoff" => cutoff })["now"])
    end

    # --- transactions ---

    # Transaction: its status, code, amount_cents, nodes and timeline.
    def transaction(tx_id)
      get("transactions/#{Values.seg(tx_id)}")["transaction"]
    end

    # Settle: every remaining step to SETTLED; the transaction after.
    def settle(tx_id)
      move(tx_id, "settle")
    end

    # Return with an ACH R.., card IR.. or wire WR.. code (late: past the code's window).
    def return_transaction(tx_id, code, late: false)
      move(tx_id, "return", Values.fields(code: code, late: late || nil))
    end

    # Go's Return with AfterSettlement: returned with code, after (a duration) once it settles.
    def schedule_return(tx_id, code, after: nil, late: false)
      move(tx_id, "schedule-return", Values.fields(code: code, after: after && Values.duration(after),
                                                   late: late || nil))
    end

    # Queue: CREATED to QUEUED-BY-SYNAPSE (or -BY-RECEIVER, by code).
    def queue(tx_id, code: nil)
      move(tx_id, "queue", Values.fields(code: code))
    end

    # Release: a queued transaction back to CREATED.
    def release(tx_id)
      move(tx_id, "release")
    end

    # Cancel a CREATED or queued transaction.
    def cancel(tx_id, code: nil)
      move(tx_id, "cancel", Values.fields(code: code))
    end

    # AdvanceTransaction: one step, to status (e.g. "PROCESSING-DEBIT").
    def advance_transaction(tx_id, status)
      move(tx_id, "advance", { "status" => status })
    end

    # DishonorReturn: the originator dishonors a return (R61, R62, R67-R70).
    def dishonor_return(tx_id, code)
      move(tx_id, "dishonor", { "code" => code })
    end

    # ContestDishonor: the receiving bank contests a dishonored return (R71-R77).
    def contest_dishonor(tx_id, code)
      move(tx_id, "contest", { "code" => code })
    end

    # WinDispute: answers transaction, dispute_status and dispute_credit_transaction_id.
    def win_dispute(tx_id)
      dispute(tx_id, "won")
    end

    # LoseDispute: answers as win_dispute does.
    def lose_dispute(tx_id)
      dispute(tx_id, "lost")
    end

    # --- cards ---

    # CardAuthorization: a swipe of the card subnet; a decline is a RETURNED transaction with its IR code.
    def card_authorization(subnet_id, amount_cents, merchant: nil, foreign: nil, cash: nil, decline_with: nil,
                           hold: nil, partial_approval_allowed: nil)
      post("subnets/#{Values.seg(subnet_id)}/authorize", Values.fields(
        amount_cents: amount_cents, merchant: merchant, foreign: foreign, cash: cash, decline_with: decline_with,
        hold: hold, partial_approval_allowed: partial_approval_allowed
      ))["transaction"]
    end

    # ForcePost: a card debit with no authorization.
    def force_post(subnet_id, amount_cents, merchant: nil, foreign: nil, cash: nil)
      post("subnets/#{Values.seg(subnet_id)}/force-post", Values.fields(
        amount_cents: amount_cents, merchant: merchant, foreign: foreign, cash: cash
      ))["transaction"]
    end

    # RefundCard: a merchant's credit to the card.
    def refund_card(subnet_id, amount_cents, merchant: nil)
      post("subnets/#{Values.seg(subnet_id)}/refund",
           Values.fields(amount_cents: amount_cents, merchant: merchant))["transaction"]
    end

    # IncrementAuthorization: the hold grows by amount_cents.
    def increment_authorization(tx_id, amount_cents)
      move(tx_id, "increment", { "amount_cents" => amount_cents })
    end

    # ReverseAuthorization: part of the hold, or all of it (no amount_cents).
    def reverse_authorization(tx_id, amount_cents: nil)
      move(tx_id, "reverse", Values.fields(amount_cents: amount_cents))
    end

    # ClearAuthorization: settles the hold for amount_cents (the held amount when nil).
    def clear_authorization(tx_id, amount_cents: nil)
      move(tx_id, "clear", Values.fields(amount_cents: amount_cents))
    end

    # --- returns planned ahead ---

    # AddReturnRule: transactions that match are returned (or queued); answers the rules in force.
    def add_return_rule(code: nil, node_id: nil, account_num: nil, amount_cents: nil, note: nil, queue: nil,
                        after: nil, late: nil)
      post("return-rules", Values.fields(
        code: code, node_id: node_id, account_num: account_num, amount_cents: amount_cents, note: note,
        queue: queue, after: after && Values.duration(after), late: late
      ))["rules"]
    end

    # ReturnRules: the rules in force.
    def return_rules
      get("return-rules")["rules"]
    end

    # ClearReturnRules.
    def clear_return_rules
      call("DELETE", "return-rules")
      nil
    end

    # --- faults ---

    # FailNext: the next call(s) of http_method on route (as the spec writes
    # it: "/users/{user_id}/nodes") answer error_code.
    def fail_next(http_method, route, error_code, times: nil)
      post("faults", Values.fields(method: http_method, route: route, error_code: error_code, times: times))
      nil
    end

    # SlowNext: the next call(s) of http_method on route wait delay before answering.
    def slow_next(http_method, route, delay, times: nil)
      post("faults/slow", Values.fields(method: http_method, route: route, delay: Values.duration(delay),
                                        times: times))
      nil
    end

    # --- webhooks ---

    # The captured webhooks, oldest first: all of them (read page by page), or the newest limit.
    def webhooks(limit: nil)
      return get("webhooks", limit: limit)["webhooks"] if limit

      out = []
      cursor = nil
      loop do
        page = get("webhooks", cursor: cursor)
        out.concat(page["webhooks"])
        cursor = page["next_cursor"]
        return out if cursor.nil? || cursor.empty?
      end
    end

    # Flush: waits until no delivery is in flight; answers how many webhooks were captured.
    def flush
      post("webhooks/flush")["webhooks_count"]
    end

    # Wait: the first captured webhook that matches every matcher given,
    # waiting up to timeout (a duration, at most 30s) for deliveries in
    # flight. None comes: ControlError 404 "no_matching_webhook", whose
    # reason says what was captured and what is pending.
    def wait_webhook(object_id: nil, function: nil, status: nil, timeout: "5s")
      body = Values.fields(object_id: object_id, function: function, status: status,
                           timeout: Values.duration(timeout))
      call("POST", "webhooks/wait", body, timeout: @timeout + 30)["webhook"]
    end

    # Webhooks().Reset: forgets the capture.
    def reset_webhooks
      call("DELETE", "webhooks")
      nil
    end

    # WebhookChaos: the settings in force.
    def chaos
      get("webhooks/chaos")["chaos"]
    end

    # SetWebhookChaos: {seed:, default: {duplicate:, reorder:, ...}, subscriptions: {...}}.
    def set_chaos(settings)
      call("PUT", "webhooks/chaos", settings)["chaos"]
    end

    # Webhook chaos off.
    def clear_chaos
      call("DELETE", "webhooks/chaos")["chaos"]
    end

    # --- the journal, state, reset ---

    # Requests: the API requests received, oldest first, each redacted; a
    # refused one has the fake's reason.
    def requests
      get("requests")["requests"]
    end

    # ResetRequests: empties the journal.
    def reset_requests
      call("DELETE", "requests")
      nil
    end

    # Snapshot: the whole state as one document (a Hash).
    def state
      get("state")
    end

    # Restore: replaces the state with a document state gave (a Hash or its
    # JSON). copy: true takes another platform's document (RestoreCopy).
    def restore(state, copy: false)
      call("PUT", "state", state, query: copy ? { "copy" => "true" } : nil)
      nil
    end

    # Reset: empties everything, as if the server had just started (the clock goes on).
    def reset
      post("reset")
      nil
    end

    # --- platforms (the server's, whichever Control is asked) ---

    # A new platform of the server (POST /_fake/platforms): its client_id,
    # client_secret, gateway, name, base_url, control_url and now. Every field
    # is optional (start an RFC 3339 instant, a Time or "default"; clock
    # "manual" or "real"); see Fake#create_platform for a Platform.
    def add_platform(name: nil, client_id: nil, client_secret: nil, start: nil, clock: nil, seed: nil)
      root.post("platforms", Values.fields(name: name, client_id: client_id, client_secret: client_secret,
                                           start: start && Values.instant(start), clock: clock,
                                           seed: seed))["platform"]
    end

    # Every platform of the server, the default first, then the others oldest first.
    def platforms
      root.get("platforms")["platforms"]
    end

    # One platform of the server, as add_platform answers it.
    def get_platform(client_id)
      root.get("platforms/#{Values.seg(client_id)}")["platform"]
    end

    # Deletes a platform and everything in it; its gateway is refused from then on.
    def delete_platform(client_id)
      root.call("DELETE", "platforms/#{Values.seg(client_id)}")
      nil
    end

    # The Control of one platform of the server: every method above on its own data and clock.
    def platform(client_id)
      Control.new("#{@origin}/_fake/platforms/#{Values.seg(client_id)}", token: @token, timeout: @timeout)
    end

    def inspect
      "#<#{self.class} #{@origin}#{@control_root}>"
    end

    protected

    def get(path, **query)
      call("GET", path, query: query)
    end

    def post(path, body = nil)
      call("POST", path, body.nil? || body.empty? ? nil : body)
    end

    private

    def root
      @control_root == "/_fake" ? self : (@root ||= Control.new(@origin, token: @token, timeout: @timeout))
    end

    def move(tx_id, move, body = nil)
      post("transactions/#{Values.seg(tx_id)}/#{move}", body)["transaction"]
    end

    def dispute(tx_id, outcome)
      answer = post("transactions/#{Values.seg(tx_id)}/dispute", { "outcome" => outcome })
      answer.slice("transaction", "dispute_status", "dispute_credit_transaction_id")
    end

    # One connection per thread, process and server, kept alive between calls.
    def request(req, timeout)
      conns = (Thread.current[:synapsefake_http] ||= {})
      key = [Process.pid, @uri.host, @uri.port]
      conns.delete_if { |k, _| k[0] != Process.pid } # a forked child's copy of its parent's
      http = conns[key]
      unless http&.started?
        http = Net::HTTP.new(@uri.host, @uri.port)
        http.open_timeout = timeout
        http.start
        conns[key] = http
      end
      http.read_timeout = timeout
      http.write_timeout = timeout
      http.request(req)
    rescue IOError, SystemCallError, Net::OpenTimeout, Net::ReadTimeout
      stale = conns&.delete(key)
      begin
        stale&.finish
      rescue IOError
        nil
      end
      raise
    end
  end
end
