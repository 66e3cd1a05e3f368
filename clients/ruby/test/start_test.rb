# frozen_string_literal: true

require_relative "test_helper"

# Synapsefake.start, connect, create_platform and the process's shared servers.
class StartTest < Minitest::Test
  BIN = TestSupport.real_binary

  def self.server
    @server ||= Synapsefake.start(bin: BIN)
  end

  def server
    self.class.server
  end

  def test_start_answers_a_server_at_the_default_instant_with_a_manual_clock
    assert_match(%r{\Ahttp://127\.0\.0\.1:\d+/v3\.1\z}, server.url)
    assert_equal server.url.sub("/v3.1", "/_fake"), server.control_url
    assert_equal Synapsefake::Binary.new(BIN, :option), server.binary
    assert_equal [BIN, "-addr", "127.0.0.1:0", "-clock", "manual", "-start", "default", "-quiet"], server.command
    assert_equal Time.utc(2026, 4, 14, 14), Synapsefake::DEFAULT_START
    assert_equal Synapsefake::DEFAULT_START, server.control.now
    assert_operator server.banner_ms, :>, 0
    assert_operator server.ready_ms, :>=, server.banner_ms
    assert server.running?
    assert_includes server.log, "synapsefake serving #{server.url}"
  end

  def test_the_banner_names_rubys_call
    # Synapsefake.start names the gem to the binary (SYNAPSEFAKE_CLIENT): its start-up line for the
    # manual clock is the helpers' call, not curl's. Stopped, its output has been read to the end.
    started = Synapsefake.start(bin: BIN)
    started.stop
    assert_includes started.log, %(  synapsefake.advance("24h")   # moves a platform's clock in a test)
    refute_includes started.log, "curl -X POST"
  end

  def test_create_platform_defaults_to_the_default_instant_and_a_manual_clock
    server = Synapsefake.start(bin: BIN)
    server.control.advance("72h") # the default platform's clock: not a new platform's
    platform = server.create_platform
    assert_equal Synapsefake::DEFAULT_START, platform.now
    assert_equal Synapsefake::DEFAULT_START, platform.created_at
    assert_equal Synapsefake::DEFAULT_START, platform.advance(0) # manual: frozen until advanced
    assert_match(/\Aclient_id_/, platform.client_id)
    assert_equal "#{platform.client_id}|#{platform.client_secret}", platform.gateway
    assert_equal server.url, platform.base_url
    assert_equal "#{server.control_url}/platforms/#{platform.client_id}", platform.control_url
    assert_equal platform.control_url, "#{platform.control.origin}#{platform.control.control_root}"
    assert_operator platform.created_ms, :>, 0
    assert_equal({ "X-SP-GATEWAY" => platform.gateway, "X-SP-USER" => "key|fp", "X-SP-USER-IP" => "127.0.0.1" },
                 platform.headers(oauth_key: "key", fingerprint: "fp"))
    platform.delete
    refute_includes server.platforms.map { |p| p["client_id"] }, platform.client_id
    assert platform.deleted?
    platform.delete # once gone, nothing to do
  ensure
    server.stop
  end

  def test_create_platform_options
    at = Time.utc(2030, 1, 2, 9)
    cases = [
      [{ start: "2030-01-02T09:00:00Z" }, at],
      [{ start: at }, at],
      [{ start: "default" }, Synapsefake::DEFAULT_START],
      [{ client_id: "named-#{Process.pid}", seed: 3, name: "Named" }, Synapsefake::DEFAULT_START]
    ]
    cases.each do |options, now|
      platform = server.create_platform(**options)
      assert_equal now, platform.now, options.inspect
      assert_equal options[:client_id], platform.client_id if options[:client_id]
      assert_equal "Named", platform.name if options[:name]
      platform.delete
    end
    err = assert_raises(ArgumentError) { server.create_platform(funds_check: true) }
    assert_equal "create_platform: unknown option funds_check; the options are name, client_id, client_secret, " \
                 "start, clock, seed", err.message
    err = assert_raises(Synapsefake::ControlError) { server.create_platform(clock: "sundial") }
    assert_equal %w[200 invalid_clock], [err.error_code, err.code]
  end

  def test_a_server_started_elsewhere_gives_its_platforms_its_start
    Synapsefake.start(bin: BIN, start: "2031-06-01T12:00:00Z", funds_check: true).then do |s|
      assert_equal [BIN, "-addr", "127.0.0.1:0", "-clock", "manual", "-start", "2031-06-01T12:00:00Z", "-quiet",
                    "-funds-check"], s.command
      assert_equal Time.utc(2031, 6, 1, 12), s.create_platform.now
    ensure
      s.stop
    end
  end

  def test_a_server_on_the_wall_clock_gives_its_platforms_the_default_platforms_time
    s = Synapsefake.start(bin: BIN, start: nil, clock: "real")
    refute_includes s.command, "-start"
    platform = s.create_platform
    assert_in_delta Time.now.to_f, platform.now.to_f, 60
    assert_operator platform.now, :>, Synapsefake::DEFAULT_START
  ensure
    s&.stop
  end

  def test_flags_in_ruby_spelling
    cases = [
      [{ max_platforms: 50 }, %w[-max-platforms 50]],
      [{ quiet: false }, []],
      [{ funds_check: true, seed: nil }, %w[-funds-check]],
      [{ allow_host: %w[a b] }, %w[-allow-host a -allow-host b]],
      [{ start: Time.utc(2030) }, %w[-start 2030-01-01T00:00:00.000Z]]
    ]
    cases.each do |flags, args|
      assert_equal args, Synapsefake::Server.flag_args(flags), flags.inspect
    end
  end

  def test_stop_ends_the_binary_and_says_its_status
    s = Synapsefake.start(bin: BIN)
    assert_equal 0, s.stop
    refute s.running?
    refute s.running? # and again
  end

  def test_a_binary_that_exits_fails_with_its_output
    broken = TestSupport.script("synapsefake", 'echo "synapsefake: -start: bad instant" >&2; exit 2')
    err = assert_raises(Synapsefake::ServeError) { Synapsefake.start(bin: broken) }
    assert_match(/\Asynapsefake: the binary exited with status 2 before it served\n  command: #{Regexp.escape(broken)} -addr/,
                 err.message)
    assert_includes err.message, "    synapsefake: -start: bad instant\n"
    assert_equal "synapsefake: -start: bad instant", err.log
  end

  def test_a_binary_without_a_banner_fails_after_the_timeout
    silent = TestSupport.script("synapsefake", "echo starting; exec sleep 30")
    err = assert_raises(Synapsefake::ServeError) { Synapsefake.start(bin: silent, timeout: 0.3) }
    assert_match(/no "synapsefake serving \.\.\." line within 0\.3 s/, err.message)
    assert_equal "starting", err.log
  end

  def test_an_unknown_flag_is_the_binarys_error
    err = assert_raises(Synapsefake::ServeError) { Synapsefake.start(bin: BIN, no_such_flag: 1) }
    assert_includes err.log, "flag provided but not defined: -no-such-flag"
  end

  def test_connect_reaches_a_running_fake
    cases = [server.url, server.url.delete_suffix("/v3.1"), server.control_url, "#{server.url}/"]
    cases.each do |url|
      fake = Synapsefake.connect(url)
      assert_equal [server.url, server.control_url], [fake.url, fake.control_url], url
    end
    fake = Synapsefake.connect(server.url)
    platform = fake.create_platform
    assert_equal Synapsefake::DEFAULT_START, platform.now
    assert_includes server.platforms.map { |p| p["client_id"] }, platform.client_id
    assert_nil fake.stop
    assert server.running?
    platform.delete
    err = assert_raises(ArgumentError) { Synapsefake.connect(nil) }
    assert_match(/SYNAPSEFAKE_URL/, err.message)
  end

  def test_the_process_server_is_started_once_per_flags
    ENV["SYNAPSEFAKE_BIN"] = BIN
    a = Synapsefake.server
    assert_same a, Synapsefake.server
    b = Synapsefake.server(funds_check: true)
    refute_same a, b
    assert_includes b.command, "-funds-check"
    assert_same b, Synapsefake.server(funds_check: true)
    b.stop
    c = Synapsefake.server(funds_check: true) # a stopped one is started again
    refute_same b, c
    assert c.running?
  ensure
    ENV.delete("SYNAPSEFAKE_BIN")
  end

  def test_synapsefake_url_is_the_process_server_without_flags
    out, status = TestSupport.run_in(Dir.pwd, TestSupport.ruby, "-e", <<~RUBY, env: { "SYNAPSEFAKE_URL" => server.url })
      require "synapsefake"
      s = Synapsefake.server
      p [s.class, s.url]
      p Synapsefake.server(funds_check: true).class
    RUBY
    assert status.success?, out
    assert_equal "[Synapsefake::Fake, #{server.url.inspect}]\nSynapsefake::Server\n", out
  end

  def test_the_binary_is_stopped_when_the_process_exits_and_a_forked_child_does_not_stop_it
    out, status = TestSupport.run_in(Dir.pwd, TestSupport.ruby, "-e", <<~RUBY)
      require "synapsefake"
      s = Synapsefake.server
      child = fork do
        p [:child, Synapsefake.server.equal?(s), Synapsefake.server.create_platform.now]
        s.stop # not the child's to stop
        exit!(0) unless s.running?
      end
      Process.wait(child)
      p [:parent, s.running?]
      puts s.pid
    RUBY
    assert status.success?, out
    lines = out.lines
    assert_equal ["[:child, true, #{Synapsefake::DEFAULT_START.inspect}]\n", "[:parent, true]\n"], lines[0, 2]
    pid = Integer(lines[2])
    assert_raises(Errno::ESRCH, Errno::ECHILD) { Process.kill(0, pid) } # gone with the process that started it
  end
end
