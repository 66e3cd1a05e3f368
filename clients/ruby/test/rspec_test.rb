# frozen_string_literal: true

require_relative "test_helper"

# synapsefake/rspec, run in rspec processes of their own.
class RSpecHelperTest < Minitest::Test
  parallelize_me!

  SPEC = <<~'RUBY'
    require "synapsefake/rspec"
    require "net/http"

    $seen = []

    RSpec.describe "the helper" do
      it "gives an example a platform of its own" do
        $seen << synapsefake.client_id
        synapsefake.add_user(legal_names: ["One"])
        expect(synapsefake.users.map { |u| u["legal_names"] }).to eq([["One"]])
        expect(synapsefake.now).to eq(Synapsefake::DEFAULT_START)
      end

      it "and another to the next example" do
        $seen << synapsefake.client_id
        expect($seen.uniq.size).to eq(2)
        expect(synapsefake.users).to eq([])
        # The first example's platform is gone: the server holds the default and this one.
        expect(synapsefake.platforms.map { |p| p["client_id"] }.drop(1)).to eq([synapsefake.client_id])
      end

      it "makes none for an example that does not ask" do
        expect(Synapsefake.server.platforms.size).to eq(1)
      end

      describe "with options", synapsefake: { start: "2030-01-01T00:00:00Z", seed: 3 } do
        it "takes the group's" do
          expect(synapsefake.now).to eq(Time.utc(2030))
        end

        it "and the example's over them", synapsefake: { client_id: "mine", funds_check: true } do
          expect([synapsefake.client_id, synapsefake.now]).to eq(["mine", Time.utc(2030)])
          expect(synapsefake_server.command).to include("-funds-check")
          node = synapsefake.add_node(synapsefake.add_user["_id"], balance_cents: 100)
          expect(synapsefake.node(node["_id"])["balance_cents"]).to eq(100)
        end
      end

      it "fails and shows the refused requests" do
        uri = URI("#{synapsefake.base_url}/users")
        Net::HTTP.get_response(uri, { "X-SP-GATEWAY" => "#{synapsefake.client_id}|wrong" })
        expect(1).to eq(2)
      end
    end
  RUBY

  def run_rspec(files, *args, env: {})
    dir = TestSupport.project(files)
    TestSupport.run_in(dir, "rspec", "--no-color", *args, *files.keys.select { |f| f.end_with?("_spec.rb") }, env: env)
  end

  def test_each_example_its_own_platform_options_and_the_failure_report
    out, status = run_rspec({ "helper_spec.rb" => SPEC })
    refute status.success?, out
    assert_includes out, "6 examples, 1 failure", out
    report = out[/1\) the helper fails and shows the refused requests.*?# \.\/helper_spec\.rb/m]
    assert report, out
    assert_match(/^     synapsefake: platform client_id_\w+ received 1 API request, 1 refused:\n       GET \/v3\.1\/users -> 401 error_code 100: X-SP-GATEWAY's client_secret is not this fake's/, report)
    assert_equal 1, out.scan("synapsefake: platform ").size, "only the failed example has a report:\n#{out}"
    assert_match(/^synapsefake: binary #{Regexp.escape(TestSupport.real_binary)} \(\$SYNAPSEFAKE_BIN\): spawn to banner [\d.]+ ms, spawn to ready [\d.]+ ms, cost beyond the binary's own start [\d.]+ ms$/, out)
    assert_match(/^synapsefake: binary .* -funds-check: spawn to banner/, out)
    assert_match(/^synapsefake: fresh platform per example: median [\d.]+ ms over 5 examples \(max [\d.]+ ms\)$/, out)
  end

  def test_a_passing_run_prints_no_report
    spec = SPEC.sub(/\n  it "fails and shows.*?\n  end\n/m, "\n")
    out, status = run_rspec({ "helper_spec.rb" => spec })
    assert status.success?, out
    assert_includes out, "5 examples, 0 failures"
    refute_includes out, "synapsefake: platform "
  end

  def test_tagged_only
    spec = <<~'RUBY'
      require "synapsefake/rspec"
      RSpec.configure { |c| c.synapsefake_tagged_only = true }

      RSpec.describe "tagged only" do
        it "has one when tagged", :synapsefake do
          expect(synapsefake.now).to eq(Synapsefake::DEFAULT_START)
        end

        it "has none otherwise" do
          expect { synapsefake }.to raise_error(Synapsefake::Error, /is not tagged :synapsefake/)
        end
      end
    RUBY
    out, status = run_rspec({ "tagged_spec.rb" => spec })
    assert status.success?, out
    assert_includes out, "2 examples, 0 failures"
  end

  def test_a_missing_binary_fails_the_example_with_the_search
    spec = <<~'RUBY'
      require "synapsefake/rspec"
      RSpec.describe("x") { it("y") { synapsefake } }
    RUBY
    out, status = run_rspec({ "x_spec.rb" => spec }, env: { "SYNAPSEFAKE_BIN" => "/nonexistent/synapsefake" })
    refute status.success?
    assert_includes out, "Synapsefake::BinaryNotFound:"
    assert_includes out, "$SYNAPSEFAKE_BIN: /nonexistent/synapsefake (no such file)"
  end
end
