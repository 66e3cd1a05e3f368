# frozen_string_literal: true

# The synapsefake gem: the fake's binary in Ruby test suites, its control
# API client and the RSpec and Minitest helpers. Standard library only.
# From a checkout, `gem build synapsefake.gemspec` makes the plain gem
# (no binary: it finds one by SYNAPSEFAKE_BIN or on PATH); make_gems.rb
# makes the release's gems, the plain one and one per platform carrying
# its binary.
require_relative "lib/synapsefake/version"

Gem::Specification.new do |s|
  s.name = "synapsefake"
  s.version = Synapsefake::VERSION
  s.summary = "A fake of the v3.1 financial API for tests: its binary, control API client, RSpec and Minitest helpers"
  s.description = "Starts the synapsefake binary (a fake of the v3.1 financial API) once per process and gives " \
                  "each RSpec example or Minitest test a platform of its own: its own users, ids, clock and webhooks."
  s.authors = ["The synapsefake authors"]
  s.license = "MIT"
  s.homepage = "https://github.com/synapsefake/synapsefake"
  s.metadata = {
    "documentation_uri" => "https://github.com/synapsefake/synapsefake/blob/main/docs/ruby.md",
    "source_code_uri" => "https://github.com/synapsefake/synapsefake/tree/main/clients/ruby"
  }
  s.required_ruby_version = ">= 3.1"
  s.files = Dir.glob("lib/**/*.rb", base: __dir__).sort + ["README.md"]
  s.require_paths = ["lib"]
end
