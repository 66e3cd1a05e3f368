# frozen_string_literal: true

# What the example suites share: the fake's v3.1 API over Net::HTTP as an
# app calls it, and a webhook receiver. Standard library only; copy it
# beside your own tests. Your SDK would take the platform's base_url,
# client_id and client_secret where these examples use Net::HTTP.
require "json"
require "net/http"
require "socket"

module Examples
  # The v3.1 API of one platform: X-SP-GATEWAY with the platform's client id
  # and secret, X-SP-USER with the user's OAuth key and the device's
  # fingerprint, X-SP-USER-IP.
  class API
    Response = Struct.new(:status, :json)

    attr_reader :key

    def initialize(platform, fingerprint: "device-1")
      @platform = platform
      @fingerprint = fingerprint
      @key = ""
      uri = URI(platform.base_url)
      @http = Net::HTTP.start(uri.host, uri.port)
      @prefix = uri.path
    end

    # One request; answers a Response (status, json), whatever the status.
    def call(method, path, body = nil, fingerprint: @fingerprint, key: @key)
      req = Net::HTTPGenericRequest.new(method, !body.nil?, true, @prefix + path,
                                        @platform.headers(oauth_key: key, fingerprint: fingerprint))
      if body
        req["Content-Type"] = "application/json"
        req.body = JSON.generate(body)
      end
      res = @http.request(req)
      Response.new(res.code.to_i, JSON.parse(res.body))
    end

    # One request that must answer 200; answers its JSON.
    def ok(method, path, body = nil, **options)
      r = call(method, path, body, **options)
      raise "#{method} #{path}: #{r.status} #{r.json}" unless r.status == 200

      r.json
    end

    # The sign-up flow of docs/api.md: POST /users with no key yet, then
    # POST /oauth/{user_id} with the refresh token. Answers the user; the API
    # holds the user's key from then on.
    def sign_up(email: "ann@example.com", phone: "901.111.1111", name: "Ann Example")
      user = ok("POST", "/users", {
                  "logins" => [{ "email" => email }], "phone_numbers" => [phone], "legal_names" => [name],
                  "extra" => { "supp_id" => "my-user-42", "cip_tag" => 1, "is_business" => false }
                }, key: "")
      sign_in(user)
      user
    end

    # POST /oauth/{user_id} with the refresh token: a fresh key.
    def sign_in(user)
      oauth = ok("POST", "/oauth/#{user["_id"]}", { "refresh_token" => user["refresh_token"] }, key: "")
      @key = oauth["oauth_key"]
      oauth
    end

    # POST /users/{user_id}/nodes: answers the first node of the page.
    def add_node(user_id, body)
      ok("POST", "/users/#{user_id}/nodes", body)["nodes"][0]
    end

    # POST .../nodes/{node_id}/trans: answers the transaction (CREATED).
    def transfer(user_id, from_node, to_type, to_id, dollars, note: "Rent")
      ok("POST", "/users/#{user_id}/nodes/#{from_node}/trans", {
           "to" => { "type" => to_type, "id" => to_id },
           "amount" => { "amount" => dollars, "currency" => "USD" },
           "extra" => { "ip" => "127.0.0.1", "note" => note }
         })
    end

    # A signed-up user with a checking node funded with $250.00 and an
    # ACH-US node (their bank account): { user:, checking:, bank: }.
    def account(platform)
      user = sign_up
      checking = add_node(user["_id"], { "type" => "DEPOSIT-US", "info" => { "nickname" => "Checking" } })
      bank = add_node(user["_id"], { "type" => "ACH-US", "info" => {
                        "nickname" => "Landlord", "account_num" => "123456786", "routing_num" => "051000017",
                        "type" => "PERSONAL", "class" => "CHECKING"
                      } })
      platform.fund(checking["_id"], 250_00) # the API has no way to put money in at once
      { user: user, checking: checking, bank: bank }
    end

    def close
      @http.finish if @http.started?
    end
  end

  # A webhook receiver on a free loopback port that keeps every POST: its
  # headers (names in lower case) and decoded body.
  class Receiver
    Hook = Struct.new(:headers, :body)

    def initialize
      @server = TCPServer.new("127.0.0.1", 0)
      @hooks = []
      @lock = Mutex.new
      @thread = Thread.new { loop { serve(@server.accept) } }
      @thread.report_on_exception = false
    end

    def url
      "http://127.0.0.1:#{@server.addr[1]}/hooks"
    end

    # Every hook received so far, oldest first.
    def hooks
      @lock.synchronize { @hooks.dup }
    end

    def close
      @thread.kill
      @server.close
    end

    private

    # Answers 200 to each request of the connection.
    def serve(socket)
      Thread.new do
        while (line = socket.gets)
          next if line.strip.empty?

          headers = {}
          while (h = socket.gets) && h != "\r\n"
            name, value = h.split(":", 2)
            headers[name.downcase] = value.strip
          end
          body = socket.read(headers["content-length"].to_i)
          @lock.synchronize { @hooks << Hook.new(headers, JSON.parse(body)) } if line.start_with?("POST ")
          socket.write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        end
      rescue IOError, SystemCallError
        nil
      ensure
        socket.close
      end
    end
  end
end
