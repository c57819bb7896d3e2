# frozen_string_literal: true

# ulid-pg: the PostgreSQL ulid type (the ulid extension) for Ruby.
#
#   gem "ulid-pg"              # Gemfile (Rails requires it; otherwise: require "ulid_pg")
#
# With ActiveRecord loaded it registers the ulid column type (lib/ulid_pg/active_record.rb).
# UlidPg.to_uuid / UlidPg.from_uuid convert between a ULID and the UUID string
# of the same 16 bytes (what id::uuid gives).
module UlidPg
  VERSION = "1.2.0"
  ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
  ULID_RE = /\A[0-7][0-9A-HJKMNP-TV-Z]{25}\z/i.freeze
  UUID_RE = /\A\h{8}-?\h{4}-?\h{4}-?\h{4}-?\h{12}\z/.freeze

  module_function

  def ulid?(value)
    value.is_a?(String) && ULID_RE.match?(value)
  end

  def uuid?(value)
    value.is_a?(String) && UUID_RE.match?(value)
  end

  # a UUID string -> the ULID of the same 16 bytes
  def from_uuid(uuid)
    raise ArgumentError, "not a UUID: #{uuid.inspect}" unless uuid?(uuid)

    n = uuid.delete("-").to_i(16)
    (0..25).map { |i| ALPHABET[(n >> (5 * (25 - i))) & 31] }.join
  end

  # the canonical ULID text (uppercase) of a ULID (any case) or a UUID string;
  # anything else as it is
  def canonical(value)
    return from_uuid(value) if uuid?(value)
    return value.upcase if ulid?(value)

    value
  end

  # a ULID (any case) -> the UUID string of the same 16 bytes
  def to_uuid(ulid)
    raise ArgumentError, "not a ULID: #{ulid.inspect}" unless ulid?(ulid)

    n = ulid.upcase.each_char.reduce(0) { |acc, c| (acc << 5) | ALPHABET.index(c) }
    h = format("%032x", n)
    "#{h[0, 8]}-#{h[8, 4]}-#{h[12, 4]}-#{h[16, 4]}-#{h[20, 12]}"
  end
end

if defined?(ActiveSupport)
  ActiveSupport.on_load(:active_record) { require "ulid_pg/active_record" }
end
