# frozen_string_literal: true

# synapsefake for Ruby test suites: the fake's binary, its control API and
# helpers for RSpec and Minitest. Standard library only, Ruby 3.1 or later.
#
#   require "synapsefake"
#
#   server = Synapsefake.start                  # the binary on a free loopback port
#   platform = server.create_platform           # a fresh platform: its own data and clock
#   user = platform.add_user(legal_names: ["Ada Lovelace"])
#   platform.advance("24h")
#   platform.delete
#   server.stop
#
# require "synapsefake/rspec" or "synapsefake/minitest" gives each test a
# platform of its own as `synapsefake`; docs/ruby.md says more.

require "monitor"

require_relative "synapsefake/version"
require_relative "synapsefake/control"
require_relative "synapsefake/binary"
require_relative "synapsefake/platform"
require_relative "synapsefake/server"

module Synapsefake
  # DefaultStartTime of the Go package: the instant a server started with
  # start: "default" (Synapsefake.start's default) is at, a Tuesday 10:00
  # in New York.
  DEFAULT_START = Time.utc(2026, 4, 14, 14, 0, 0)

  @started = []
  @shared = {}
  @lock = Monitor.new
  @stats = { servers: [], platform_ms: [] }

  class << self
    # Starts the synapsefake binary on a free loopback port and answers the
    # Server once it has printed its banner and answered a control call.
    #
    # Options: bin: the binary (before SYNAPSEFAKE_BIN and the rest of the
    # search, see Binary.find); timeout: seconds to wait (10); token: its
    # -control-token; env: its environment (this process's by default);
    # args: more flags as strings. Every other keyword is a flag of the
    # binary (synapsefake -h), in Ruby spelling: start: (an RFC 3339
    # instant, a Time or "default"), clock: ("manual" or "real"), seed:,
    # funds_check: true, kyc_review: "manual", micro_deposits: true,
    # max_platforms: 50, quiet: false... The defaults are
    # -addr 127.0.0.1:0 -clock manual -start default -quiet: a frozen clock at
    # DEFAULT_START. A binary that exits or never answers raises ServeError
    # with what it printed. It is stopped when this process exits, if stop
    # was not called.
    def start(**options)
      Server.new(**options)
    end

    # A fake already running, by its API base URL (http://127.0.0.1:PORT/v3.1)
    # or origin; without url, $SYNAPSEFAKE_URL. Nothing is started; stop
    # does nothing. Its platforms start at "default" with a manual clock
    # unless told otherwise.
    def connect(url = ENV.fetch("SYNAPSEFAKE_URL", nil), token: nil, timeout: 10)
      if url.nil? || url.to_s.empty?
        raise ArgumentError, "synapsefake: connect needs the fake's URL (http://127.0.0.1:PORT/v3.1), " \
                             "or SYNAPSEFAKE_URL set"
      end

      Fake.new(url, token: token, timeout: timeout)
    end

    # The process's server for these flags (Synapsefake.start's options),
    # started at the first call and stopped when the process exits: the one
    # the RSpec and Minitest helpers share between the tests of a process
    # (of a parallel_tests worker, of each thread of Minitest's
    # parallelize_me!). With SYNAPSEFAKE_URL set and no flags, the fake
    # there (Synapsefake.connect): workers can share one binary that way.
    # A forked child uses the server its parent had started, if any.
    def server(**flags)
      key = flags.sort_by { |k, _| k.to_s }
      @lock.synchronize do
        current = @shared[key]
        return current if current&.running?

        url = ENV.fetch("SYNAPSEFAKE_URL", nil)
        @shared[key] = flags.empty? && url && !url.empty? ? connect(url) : start(**flags)
      end
    end

    # Finds the binary (see Binary.find): a Binary with path and source.
    def find_binary(bin = nil, env: ENV)
      Binary.find(bin, env: env)
    end

    # The name of this process among parallel workers: "worker N" from
    # TEST_ENV_NUMBER (parallel_tests: "" is the first), or nil.
    def worker
      n = ENV.fetch("TEST_ENV_NUMBER", nil)
      return nil if n.nil? || (n.empty? && !ENV.key?("PARALLEL_TEST_GROUPS"))

      "worker #{n.empty? ? 1 : n}"
    end

    # A platform for one test, made by the helpers: options are platform
    # fields (Fake::PLATFORM_FIELDS) and flags of the binary, which pick the
    # process's server for those flags (Synapsefake.server). Its cost is
    # counted in the summary.
    def platform_for_test(options = {})
      options = options.transform_keys(&:to_sym)
      fields = options.slice(*Fake::PLATFORM_FIELDS)
      flags = options.reject { |k, _| Fake::PLATFORM_FIELDS.include?(k) }
      platform = server(**flags).create_platform(**fields)
      @lock.synchronize { @stats[:platform_ms] << platform.created_ms }
      platform
    end

    # The summary the helpers print at the end of a run: each binary started
    # with its start-up figures, and the median cost of a fresh platform.
    def summary(what = "test")
      who = worker ? " (#{worker})" : ""
      lines = @lock.synchronize do
        @stats[:servers].map do |s|
          format("synapsefake%s: binary %s (%s)%s: spawn to banner %.1f ms, spawn to ready %.1f ms, " \
                 "cost beyond the binary's own start %.1f ms",
                 who, s[:path], s[:where], s[:flags].empty? ? "" : " #{s[:flags].join(" ")}", s[:banner_ms], s[:ready_ms], s[:ready_ms] - s[:banner_ms])
        end + platform_line(what, who)
      end
      lines.join("\n")
    end

    # Called by Server: a server started, to stop at exit.
    def started(server)
      @lock.synchronize do
        @started << server
        @stats[:servers] << { path: server.binary.path, where: server.binary.where,
                              flags: Server.flag_args(server.flags),
                              banner_ms: server.banner_ms, ready_ms: server.ready_ms }
        unless @at_exit
          @at_exit = true
          at_exit { stop_all }
        end
      end
    end

    # Called by Server: a server stopped.
    def stopped(server)
      @lock.synchronize { @started.delete(server) }
    end

    # Stops every server this process started and has not stopped. The
    # at_exit handler calls it; a server started after it ran (by a later
    # exit handler, as Minitest's after_run) registers another.
    def stop_all
      @lock.synchronize do
        @at_exit = false
        @started.dup
      end.each(&:stop)
    end

    private

    def platform_line(what, who)
      times = @stats[:platform_ms].sort
      return [] if times.empty?

      mid = times.size / 2
      median = times.size.odd? ? times[mid] : (times[mid - 1] + times[mid]) / 2
      [format("synapsefake%s: fresh platform per %s: median %.2f ms over %d %ss (max %.2f ms)",
              who, what, median, times.size, what, times.max)]
    end
  end
end
