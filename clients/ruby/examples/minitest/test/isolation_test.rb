# frozen_string_literal: true

require_relative "test_helper"

# Each test has a platform of its own: its own users, its own clock. And a
# refused control call says why.
class IsolationTest < ExampleTest
  def only_user
    user = api.sign_up
    assert_equal [user["_id"]], api.ok("GET", "/users")["users"].map { |u| u["_id"] }
  end

  def test_a_user_of_my_own
    only_user
  end

  def test_another_user_of_my_own
    only_user
  end

  def test_no_other_platform_is_alive
    # One binary per process, whose tests run one at a time: the server holds
    # its default platform and this test's, no other.
    assert_equal [synapsefake.client_id], synapsefake.platforms.map { |p| p["client_id"] }.drop(1)
  end

  def test_a_refused_control_call_says_why
    user = synapsefake.add_user
    err = assert_raises(Synapsefake::ControlError) { synapsefake.settle("0123456789abcdef01234567") }
    assert_equal %w[404 404 unable_to_locate_transaction], [err.error_code, err.http_code, err.code]
    assert_equal "Unable to locate transaction.", err.reason

    err = assert_raises(Synapsefake::ControlError) { synapsefake.advance("-1h") }
    assert_equal ["200", 400, "invalid_duration"], [err.error_code, err.status, err.code]
    assert_equal user["_id"], synapsefake.user(user["_id"])["_id"] # a refusal changes nothing
  end
end

# The clock: every test of the class starts at the instant its options say.
class ClockTest < ExampleTest
  START = Time.utc(2026, 4, 14, 14) # 2026-04-14T10:00:00-04:00, a Tuesday
  synapsefake_options start: "2026-04-14T10:00:00-04:00"

  def test_my_clock_moves
    assert_equal START, synapsefake.now
    synapsefake.advance("48h")
    synapsefake.advance(30 * 60)
    assert_equal START + (((48 * 60) + 30) * 60), synapsefake.now
  end

  def test_my_clock_did_not_move
    assert_equal START, synapsefake.now
  end

  def test_a_start_of_its_own
    synapsefake(start: "2026-12-31T23:00:00Z")
    assert_equal Time.utc(2026, 12, 31, 23), synapsefake.now
  end
end
