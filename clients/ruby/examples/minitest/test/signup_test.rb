# frozen_string_literal: true

require_relative "test_helper"

# Sign-up over HTTP, as an app does it, and the MFA path (docs/api.md, "The sign-up flow").
class SignUpTest < ExampleTest
  def test_sign_up_then_add_a_node_the_control_api_sees
    user = api.sign_up
    assert_equal "UNVERIFIED", user["permission"]
    assert api.key.start_with?("oauth_")

    node = api.add_node(user["_id"], { "type" => "DEPOSIT-US", "info" => { "nickname" => "Checking" } })
    assert_equal "Checking", node["info"]["nickname"]
    assert_equal [node["_id"]], synapsefake.user_nodes(user["_id"]).map { |n| n["_id"] }
  end

  def test_a_new_device_answers_mfa
    user = api.sign_up
    oauth = "/oauth/#{user["_id"]}"
    refresh = { "refresh_token" => user["refresh_token"] }

    # From a device the user never used: 202 / error_code "10" with the phone numbers.
    r = api.call("POST", oauth, refresh, fingerprint: "device-2", key: "")
    assert_equal [202, "10"], [r.status, r.json["error_code"]]
    phone = r.json["phone_numbers"][0]

    # The app picks a phone number: the fake "sends" a PIN.
    r = api.call("POST", oauth, refresh.merge("phone_number" => phone), fingerprint: "device-2", key: "")
    assert_equal 202, r.status

    # The user types it in; the control API tells the test what it was.
    pin = synapsefake.mfa_pin(user["_id"])
    answer = api.ok("POST", oauth, refresh.merge("validation_pin" => pin), fingerprint: "device-2", key: "")
    assert_equal user["_id"], answer["user_id"]
  end

  def test_forced_mfa_on_a_known_device
    user = api.sign_up
    synapsefake.force_mfa(user["_id"])
    r = api.call("POST", "/oauth/#{user["_id"]}", { "refresh_token" => user["refresh_token"] }, key: "")
    assert_equal [202, "10"], [r.status, r.json["error_code"]]
  end
end
