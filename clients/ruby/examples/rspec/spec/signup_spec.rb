# frozen_string_literal: true

# Sign-up over HTTP, as an app does it, and the MFA path (docs/api.md, "The sign-up flow").
RSpec.describe "sign-up" do
  it "signs up, then adds a node the control API sees" do
    user = api.sign_up
    expect(user["permission"]).to eq("UNVERIFIED")
    expect(api.key).to start_with("oauth_")

    node = api.add_node(user["_id"], { "type" => "DEPOSIT-US", "info" => { "nickname" => "Checking" } })
    expect(node["info"]["nickname"]).to eq("Checking")
    expect(synapsefake.user_nodes(user["_id"]).map { |n| n["_id"] }).to eq([node["_id"]])
  end

  it "answers a new device with MFA" do
    user = api.sign_up
    oauth = "/oauth/#{user["_id"]}"
    refresh = { "refresh_token" => user["refresh_token"] }

    # From a device the user never used: 202 / error_code "10" with the phone numbers.
    r = api.call("POST", oauth, refresh, fingerprint: "device-2", key: "")
    expect([r.status, r.json["error_code"]]).to eq([202, "10"])
    phone = r.json["phone_numbers"][0]

    # The app picks a phone number: the fake "sends" a PIN.
    r = api.call("POST", oauth, refresh.merge("phone_number" => phone), fingerprint: "device-2", key: "")
    expect(r.status).to eq(202)

    # The user types it in; the control API tells the test what it was.
    pin = synapsefake.mfa_pin(user["_id"])
    answer = api.ok("POST", oauth, refresh.merge("validation_pin" => pin), fingerprint: "device-2", key: "")
    expect(answer["user_id"]).to eq(user["_id"])
  end

  it "asks for MFA on a known device once forced" do
    user = api.sign_up
    synapsefake.force_mfa(user["_id"])
    r = api.call("POST", "/oauth/#{user["_id"]}", { "refresh_token" => user["refresh_token"] }, key: "")
    expect([r.status, r.json["error_code"]]).to eq([202, "10"])
  end
end
