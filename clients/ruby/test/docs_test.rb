# frozen_string_literal: true

require_relative "test_helper"

# Every ruby block of docs/ruby.md (and the README's) runs as written: an
# RSpec one under rspec, a Minitest one under ruby, any other as a script,
# each passing.
class DocsTest < Minitest::Test
  parallelize_me!

  DOC = File.join(TestSupport::ROOT, "docs", "ruby.md")
  BLOCKS = [DOC, File.join(TestSupport::ROOT, "README.md")].select { |f| File.exist?(f) }
                                                            .flat_map { |f| File.read(f).scan(/^```ruby\n(.*?)^```$/m).map(&:first) }

  def test_there_are_blocks
    skip "docs/ruby.md is not beside this checkout" unless File.exist?(DOC)
    assert_operator BLOCKS.size, :>=, 7
  end

  BLOCKS.each_with_index do |code, i|
    define_method("test_block_#{i + 1}_runs") do
      if code.include?("RSpec.describe")
        dir = TestSupport.project({ "doc_spec.rb" => code })
        out, status = TestSupport.run_in(dir, "rspec", "--no-color", "doc_spec.rb")
        assert_match(/ examples?, 0 failures/, out, "block #{i + 1}:\n#{code}")
      elsif code.include?("Minitest::Test")
        dir = TestSupport.project({ "doc_test.rb" => code })
        out, status = TestSupport.run_in(dir, TestSupport.ruby, "doc_test.rb")
        assert_match(/ 0 failures, 0 errors, 0 skips/, out, "block #{i + 1}:\n#{code}")
      else
        dir = TestSupport.project({ "doc.rb" => code })
        out, status = TestSupport.run_in(dir, TestSupport.ruby, "doc.rb")
      end
      assert status.success?, "block #{i + 1}:\n#{code}\n#{out}"
    end
  end
end
