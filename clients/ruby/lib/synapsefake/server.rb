# frozen_string_literal: true

require "io/wait"

module Synapsefake
  # The binary did not start, or did not answer: log is what it printed.
  class ServeError < Error
    attr_reader :command, :log

    def initialize(message, command, log)
      @command = command
      @log = log
      printed = log.to_s.empty? ? "    (nothing)\n" : log.each_line.map { |l| "    #{l.chomp}\n" }.join
      super("synapsefake: #{message}\n  command: #{command.join(" ")}\n  its output:\n#{printed}")
    end
  end

  # A fake to make platforms on, reached by its URL: one Synapsefake.connect
  # gave (nothing to stop), or, as a Server, one this process started.
  class Fake
    # The platform fields of create_platform (POST /_fake/platforms).
    PLATFORM_FIELDS = %i[name client_id client_secret start clock seed].freeze

    # url is the API's base URL, http://127.0.0.1:PORT/v3.1; control_url the
    # default platform's control API, http://127.0.0.1:PORT/_fake; control
    # the Control over it (and the platforms routes); token the
    # -control-token it sends.
    attr_reader :url, :control_url, :control, :token

    # The start and clock a platform gets when create_platform is not told.
    attr_reader :platform_defaults

    def initialize(url, token: nil, timeout: 10, platform_defaults: { start: "default", clock: "manual" })
      base = url.to_s.sub(%r{/+\z}, "").sub(%r{/_fake\z}, "")
      base += "/v3.1" unless base.end_with?("/v3.1")
      @url = base
      @control_url = "#{base.delete_suffix("/v3.1")}/_fake"
      @token = token
      @control = Control.new(@control_url, token: token, timeout: timeout)
      @platform_defaults = platform_defaults
    end

    # A new platform of the server (POST /_fake/platforms), as a Platform.
    # Every option is optional: name, client_id, client_secret, start (an
    # RFC 3339 instant, a Time or "default"), clock ("manual" or "real"),
    # seed (of its id stream). start and clock default to the server's own
    # (for Synapsefake.start, the fixed default instant and a manual clock;
    # for a fake connected to, "default" and "manual"), so that a test's
    # platform starts at the same instant every day.
    def create_platform(**options)
      unknown = options.keys - PLATFORM_FIELDS
      unless unknown.empty?
        raise ArgumentError, "create_platform: unknown option #{unknown.join(", ")}; the options are " \
                             "#{PLATFORM_FIELDS.join(", ")}"
      end
      t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      info = @control.add_platform(**@platform_defaults.merge(options))
      platform = Platform.new(info, self)
      platform.created_ms = (Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0) * 1000
      platform
    end

    # Every platform of the server, the default first (as Hashes).
    def platforms
      @control.platforms
    end

    # Nothing to stop: this process did not start it.
    def stop
      nil
    end

    # Whether it answers GET /_fake/clock.
    def running?
      @control.call("GET", "clock")
      true
    rescue StandardError
      false
    end

    def inspect
      "#<#{self.class} #{@url}>"
    end
  end

  # A synapsefake binary this process started (Synapsefake.start): its
  # process, its output and how long it took to start.
  class Server < Fake
    BANNER = "synapsefake serving "
    LOG_LINES = 2000
    CLIENT_ENV = "SYNAPSEFAKE_CLIENT"

    # The Binary that runs (path and where it was found), the command, the
    # process id, and the process that started it.
    attr_reader :binary, :command, :pid, :owner_pid

    # Milliseconds from spawning the binary to its banner, and to its first answer.
    attr_reader :banner_ms, :ready_ms

    # The flags it was started with, as Synapsefake.start took them.
    attr_reader :flags

    # Starts the binary: see Synapsefake.start.
    def initialize(bin: nil, timeout: 10, token: nil, env: nil, args: [], **flags)
      @binary = Binary.find(bin)
      @flags = flags
      opts = { addr: "127.0.0.1:0", clock: "manual", start: "default", quiet: true }.merge(flags)
      opts[:control_token] = token if token
      @command = [@binary.path, *Server.flag_args(opts), *args.map(&:to_s)]
      @lines = []
      @lines_lock = Mutex.new
      @owner_pid = Process.pid
      t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      read, write = IO.pipe
      begin
        # SYNAPSEFAKE_CLIENT names the gem to the binary, which then phrases
        # its start-up line for the manual clock as the gem's call, as the
        # Control's header does for the hints of its answers.
        @pid = Process.spawn((env || {}).merge(CLIENT_ENV => Control::CLIENT), [@command[0], @command[0]], *@command[1..],
                             in: File::NULL, out: write, err: write)
      rescue SystemCallError => e
        read.close
        raise ServeError.new("cannot run #{@binary.path}: #{e.message}", @command, "")
      ensure
        write.close
      end
      @waiter = Process.detach(@pid)
      begin
        url, rest = wait_banner(read, t0, timeout)
        @banner_ms = (Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0) * 1000
        @reader = Thread.new { drain(read, rest) }
        @reader.report_on_exception = false
        super(url, token: token, timeout: timeout,
                   platform_defaults: { start: opts[:start] && Values.instant(opts[:start]),
                                        clock: opts[:clock]&.to_s })
        wait_ready(t0, timeout)
        @ready_ms = (Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0) * 1000
      rescue StandardError
        kill
        raise
      end
      Synapsefake.started(self)
    end

    # Command-line flags from keyword arguments: clock: "manual" is
    # -clock manual, max_platforms: 10 is -max-platforms 10, quiet: true is
    # -quiet, a false or nil value is left out, an Array repeats the flag, a
    # Time is an RFC 3339 instant.
    def self.flag_args(flags)
      flags.flat_map do |key, value|
        name = "-#{key.to_s.tr("_", "-")}"
        case value
        when nil, false then []
        when true then [name]
        when Array then value.flat_map { |v| [name, Values.instant(v)] }
        else [name, Values.instant(value)]
        end
      end
    end

    # What the binary printed so far (its last 2,000 lines), stdout and stderr together.
    def log
      @lines_lock.synchronize { @lines.join("\n") }
    end

    # Whether the binary still runs.
    def running?
      return @waiter.alive? if Process.pid == @owner_pid

      Process.kill(0, @pid)
      true
    rescue SystemCallError
      false
    end

    # Stops the binary (SIGTERM, then SIGKILL after 5 s) and answers its exit
    # status. Only the process that started it stops it: in a forked child,
    # stop does nothing.
    def stop
      return nil unless Process.pid == @owner_pid

      if @waiter.alive?
        signal(Binary.windows? ? "KILL" : "TERM") # Windows has no SIGTERM
        signal("KILL") unless @waiter.join(5)
      end
      @reader&.join(2)
      Synapsefake.stopped(self)
      @waiter.value&.exitstatus
    end

    def inspect
      "#<#{self.class} #{@url} pid #{@pid}>"
    end

    private

    def record(line)
      @lines_lock.synchronize do
        @lines << line
        @lines.shift if @lines.size > LOG_LINES
      end
    end

    # Reads the output until the banner line; answers its URL and what was read after it.
    def wait_banner(read, t0, timeout)
      buf = +""
      loop do
        while (nl = buf.index("\n"))
          line = buf.slice!(0, nl + 1).chomp
          record(line)
          return [line.delete_prefix(BANNER).strip, buf] if line.start_with?(BANNER)
        end
        left = timeout - (Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0)
        raise ServeError.new("no \"#{BANNER}...\" line within #{timeout} s", @command, log) if left <= 0

        next unless read.wait_readable(left)

        chunk = read.read_nonblock(65_536, exception: false)
        next if chunk == :wait_readable

        if chunk.nil?
          record(buf) unless buf.empty?
          status = @waiter.value
          why = status.signaled? ? "was killed by signal #{status.termsig}" : "exited with status #{status.exitstatus}"
          raise ServeError.new("the binary #{why} before it served", @command, log)
        end
        buf << chunk.force_encoding(Encoding::UTF_8).scrub
      end
    end

    def drain(read, buf)
      buf.each_line { |l| record(l.chomp) }
      read.each_line { |l| record(l.chomp) }
    rescue IOError
      nil
    ensure
      read.close unless read.closed?
    end

    def wait_ready(t0, timeout)
      last = nil
      loop do
        begin
          @control.call("GET", "clock", timeout: 2)
          return
        rescue StandardError => e
          last = e
        end
        raise ServeError.new("the binary exited with status #{@waiter.value.exitstatus}", @command, log) unless @waiter.alive?
        if Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0 > timeout
          raise ServeError.new("GET #{@control_url}/clock did not answer within #{timeout} s (#{last.message})",
                               @command, log)
        end
        sleep 0.005
      end
    end

    def signal(name)
      Process.kill(name, @pid)
    rescue SystemCallError
      nil
    end

    def kill
      return unless @pid && @waiter

      signal("KILL")
      @waiter.join(5)
      Synapsefake.stopped(self)
    end
  end
end
