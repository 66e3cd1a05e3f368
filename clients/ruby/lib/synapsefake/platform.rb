# frozen_string_literal: true

require "forwardable"

module Synapsefake
  # One platform of a server (POST /_fake/platforms): its own users, ids,
  # clock, webhooks, journal and faults, reached through its gateway.
  #
  # base_url is the SDKs' base URL (.../v3.1, the same for every platform of
  # a server), client_id, client_secret and gateway ("client_id|client_secret",
  # the X-SP-GATEWAY header) its credentials, control_url its control API and
  # control the Control over it. Every method of Control is a method of the
  # platform too: platform.add_user(...), platform.advance("24h").
  class Platform
    extend Forwardable

    attr_reader :base_url, :client_id, :client_secret, :gateway, :name, :control_url, :control, :info

    # The platform's clock when it was made, a Time.
    attr_reader :created_at

    # How long making it took, in milliseconds.
    attr_accessor :created_ms

    # info is POST /_fake/platforms' "platform"; server the Fake it is on.
    def initialize(info, server)
      @info = info
      @base_url = info.fetch("base_url")
      @client_id = info.fetch("client_id")
      @client_secret = info.fetch("client_secret")
      @gateway = info.fetch("gateway")
      @name = info["name"]
      @control_url = info.fetch("control_url")
      @created_at = info["now"] && Values.time(info["now"])
      @server = server
      @control = Control.new(@control_url, token: server.token, timeout: server.control.timeout)
      @deleted = false
    end

    # The Fake (or Server) the platform is on.
    attr_reader :server

    def_delegators :@control, *(Control.public_instance_methods(false) - %i[origin control_root token timeout inspect])

    # The headers of an API request on this platform: X-SP-GATEWAY, X-SP-USER
    # ("oauth_key|fingerprint", an empty key before sign-in) and X-SP-USER-IP.
    def headers(oauth_key: "", fingerprint: "fingerprint", ip: "127.0.0.1")
      { "X-SP-GATEWAY" => @gateway, "X-SP-USER" => "#{oauth_key}|#{fingerprint}", "X-SP-USER-IP" => ip }
    end

    # Deletes the platform and everything in it; its gateway is refused (401)
    # from then on. Deleting one already gone does nothing.
    def delete
      @server.control.delete_platform(@client_id)
      @deleted = true
      nil
    rescue ControlError => e
      raise unless e.code == "unable_to_locate_platform"

      @deleted = true
      nil
    end

    # Whether delete was called.
    def deleted?
      @deleted
    end

    # What a failed test prints: the API requests this platform refused, each
    # with the fake's reason, and its newest requests. Never raises: a
    # journal that cannot be read is said so.
    def failure_report(refused: 50, newest: 20)
      Report.text(self, refused: refused, newest: newest)
    end

    def inspect
      "#<#{self.class} #{@client_id} at #{@base_url}>"
    end
  end

  # The failure report of a platform, for the RSpec and Minitest helpers.
  module Report
    module_function

    # One line of a request of the journal: "GET /v3.1/users -> 401 error_code 100: why".
    def line(r)
      path = r["path"].to_s
      query = r["query"]
      query = URI.encode_www_form(query.flat_map { |k, vs| Array(vs).map { |v| [k, v] } }) if query.is_a?(Hash)
      path += "?#{query}" unless query.nil? || query.to_s.empty?
      s = "#{r["method"]} #{path} -> #{r["status"]}"
      s += " error_code #{r["error_code"]}" unless ["", "0"].include?(r["error_code"].to_s)
      s += ": #{r["reason"]}" unless r["reason"].to_s.empty?
      s
    end

    # Whether the fake refused the request.
    def refused?(r)
      r["status"].to_i >= 400 || !r["reason"].to_s.empty?
    end

    # The report's text: a heading, the refused requests older than the
    # newest ones (at most refused of them), then the newest requests, each
    # refusal with the fake's reason.
    def text(platform, refused: 50, newest: 20)
      all = platform.control.requests
      bad = all.count { |r| refused?(r) }
      recent = all.last(newest)
      earlier = all[0...(all.size - recent.size)].select { |r| refused?(r) }.last(refused)
      out = ["synapsefake: platform #{platform.client_id} received #{count(all.size, "API request")}, #{bad} refused" \
             "#{all.empty? ? " (no API request reached this test's platform)" : ":"}"]
      unless earlier.empty?
        out << "  refused earlier:"
        earlier.each { |r| out << "    #{line(r)}" }
        out << "  the newest #{recent.size}:"
      end
      recent.each { |r| out << "#{earlier.empty? ? "  " : "    "}#{line(r)}" }
      out.join("\n")
    rescue StandardError => e
      "synapsefake: the request journal of platform #{platform.client_id} could not be read: #{e.message}"
    end

    def count(n, what)
      "#{n} #{what}#{n == 1 ? "" : "s"}"
    end
  end
end
