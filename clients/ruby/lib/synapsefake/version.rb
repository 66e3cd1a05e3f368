# frozen_string_literal: true

module Synapsefake
  # The gem's version: 0.0.0 in a checkout (a release version, so that a gem
  # built from it loads without a prerelease requirement); make_gems.rb
  # writes the release's (v1.2.3 is 1.2.3) into the gems it builds.
  VERSION = "0.0.0"
end
