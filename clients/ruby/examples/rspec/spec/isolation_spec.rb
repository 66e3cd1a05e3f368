# frozen_string_literal: true

# Each example has a platform of its own: its own users, its own clock. And a
# refused control call says why.
RSpec.describe "isolation" do
  let(:start) { Time.utc(2026, 4, 14, 14) } # 2026-04-14T10:00:00-04:00, a Tuesday

  def only_user
    user = api.sign_up
    expect(api.ok("GET", "/users")["users"].map { |u| u["_id"] }).to eq([user["_id"]])
  end

  it("sees a user of its own") { only_user }
  it("and so does the next example") { only_user }

  it "has no other platform alive" do
    # One binary per process, whose examples run one at a time: the server
    # holds its default platform and this example's, no other.
    expect(synapsefake.platforms.map { |p| p["client_id"] }.drop(1)).to eq([synapsefake.client_id])
  end

  describe "the clock", synapsefake: { start: "2026-04-14T10:00:00-04:00" } do
    it "moves when told" do
      expect(synapsefake.now).to eq(start)
      synapsefake.advance("48h")
      synapsefake.advance(30 * 60)
      expect(synapsefake.now).to eq(start + ((48 * 60) + 30) * 60)
    end

    it "did not move for this example" do
      expect(synapsefake.now).to eq(start)
    end

    it "starts where the example says", synapsefake: { start: "2026-12-31T23:00:00Z" } do
      expect(synapsefake.now).to eq(Time.utc(2026, 12, 31, 23))
    end
  end

  it "says why a control call was refused" do
    user = synapsefake.add_user
    expect { synapsefake.settle("0123456789abcdef01234567") }.to raise_error(Synapsefake::ControlError) { |err|
      expect([err.error_code, err.http_code, err.code]).to eq(%w[404 404 unable_to_locate_transaction])
      expect(err.reason).to eq("Unable to locate transaction.")
    }
    expect { synapsefake.advance("-1h") }.to raise_error(Synapsefake::ControlError, /invalid_duration/) { |err|
      expect([err.error_code, err.status]).to eq(["200", 400])
    }
    expect(synapsefake.user(user["_id"])["_id"]).to eq(user["_id"]) # a refusal changes nothing
  end
end
