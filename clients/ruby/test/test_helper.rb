# frozen_string_literal: true

# The gem's own tests (Minitest), from clients/ruby:
#
#   ruby -Ilib -Itest -e 'Dir.glob("test/*_test.rb").sort.each { |f| require_relative f }'
#
# or one file: ruby -Itest test/control_test.rb. They need the real binary:
# SYNAPSEFAKE_BIN, or Go to build it from the repository (go build
# ./cmd/synapsefake). The variable is read here and cleared, so that the
# binary search sees only what each test sets.
require "fileutils"
require "json"
require "minitest/autorun"
require "net/http"
require "open3"
require "rbconfig"
require "tmpdir"

LIB = File.expand_path("../lib", __dir__)
$LOAD_PATH.unshift(LIB) unless $LOAD_PATH.include?(LIB)
require "synapsefake"

module TestSupport
  ROOT = File.expand_path("../../..", __dir__)
  TMP = Dir.mktmpdir("synapsefake-ruby-tests-")
  Minitest.after_run { FileUtils.rm_rf(TMP) }

  # The real binary: $SYNAPSEFAKE_BIN, else built from the repository.
  def self.real_binary
    @real_binary ||= begin
      given = ENV.delete("SYNAPSEFAKE_BIN")
      if given && !given.empty?
        File.expand_path(given)
      else
        out = File.join(TMP, "bin", "synapsefake")
        _, err, status = Open3.capture3({ "CGO_ENABLED" => "0" }, "go", "build", "-o", out, "./cmd/synapsefake",
                                        chdir: ROOT)
        raise "SYNAPSEFAKE_BIN is not set and go build failed:\n#{err}" unless status.success?

        out
      end
    end
  end
  real_binary
  %w[SYNAPSEFAKE_URL TEST_ENV_NUMBER PARALLEL_TEST_GROUPS].each { |k| ENV.delete(k) }

  module_function

  # A shell script standing in for the binary.
  def script(name, body)
    path = File.join(Dir.mktmpdir("script-", TMP), name)
    File.write(path, "#!/bin/sh\n#{body}\n")
    File.chmod(0o755, path)
    path
  end

  # A directory of files (name => text) for a run of its own.
  def project(files)
    dir = Dir.mktmpdir("project-", TMP)
    files.each do |name, text|
      FileUtils.mkdir_p(File.dirname(File.join(dir, name)))
      File.write(File.join(dir, name), text)
    end
    dir
  end

  # Runs a command in dir with this checkout's lib on RUBYLIB and the real
  # binary as SYNAPSEFAKE_BIN (unless env says otherwise); answers
  # [stdout and stderr, status].
  def run_in(dir, *command, env: {})
    full = { "RUBYLIB" => [LIB, ENV.fetch("RUBYLIB", nil)].compact.join(File::PATH_SEPARATOR),
             "SYNAPSEFAKE_BIN" => TestSupport.real_binary }.merge(env)
    Open3.capture2e(full, *command, chdir: dir)
  end

  # The ruby running these tests.
  def ruby
    RbConfig.ruby
  end
end

# The v3.1 API of a platform over Net::HTTP, for the tests that need objects
# the control API does not make (a transaction through the API).
class TestAPI
  def initialize(platform, key: "", fingerprint: "device-1")
    @platform = platform
    @key = key
    @fingerprint = fingerprint
  end

  def call(method, path, body = nil)
    uri = URI("#{@platform.base_url}#{path}")
    req = Net::HTTPGenericRequest.new(method, !body.nil?, true, uri.request_uri,
                                      @platform.headers(oauth_key: @key, fingerprint: @fingerprint))
    if body
      req["Content-Type"] = "application/json"
      req.body = JSON.generate(body)
    end
    res = Net::HTTP.start(uri.host, uri.port) { |http| http.request(req) }
    [res.code.to_i, JSON.parse(res.body)]
  end

  def ok(method, path, body = nil)
    status, answer = call(method, path, body)
    raise "#{method} #{path}: #{status} #{answer}" unless status == 200

    answer
  end
end
