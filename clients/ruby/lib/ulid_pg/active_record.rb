# frozen_string_literal: true

# ActiveRecord and the ulid type.  Without this, everything works (ulid values
# are Strings) except the schema dump: db/schema.rb skips every table with a
# ulid column ("Unknown type 'ulid'") but keeps their foreign keys, so
# db:schema:load and every test database fail.  With it, schema.rb writes
# `id: :ulid` and `t.ulid "item_id"`, and loads again; `t.ulid :tags, array:
# true` is a ulid[] column read as an Array; a UUID string is taken as the
# ULID of the same bytes (stored, and found by where(id: ...)), and every key
# is its canonical (uppercase) ULID text in memory too, so one row is one
# identity.  A uuid column takes a ULID string as the UUID of the same bytes
# (ActiveRecord's own uuid type makes it nil).
# Tested with ActiveRecord 6.1 (Debian 12); 7.x builds its type map on the
# class, which this also extends.
require "active_record"
require "active_record/connection_adapters/postgresql_adapter"
require "ulid_pg"

module UlidPg
  # the ulid column's attribute type: Strings, the canonical ULID text
  class Type < ActiveRecord::Type::String
    def type
      :ulid
    end

    def serialize(value)
      UlidPg.canonical(super)
    end

    def cast_value(value)
      UlidPg.canonical(super)
    end
  end

  # ActiveRecord's uuid type: a ULID string is the UUID of the same bytes
  module UuidTakesUlid
    private

    def cast_value(value)
      super(UlidPg.ulid?(value) ? UlidPg.to_uuid(value) : value)
    end
  end

  module InstanceTypeMap # ActiveRecord 6.1: a type map per connection
    private

    def initialize_type_map(m = type_map)
      super
      m.register_type "ulid", UlidPg::Type.new
    end
  end

  module ClassTypeMap # ActiveRecord 7.0+
    def initialize_type_map(m)
      super
      m.register_type "ulid", UlidPg::Type.new
    end
  end
end

adapter = ActiveRecord::ConnectionAdapters::PostgreSQLAdapter
# the column type name for migrations and schema.rb
adapter::NATIVE_DATABASE_TYPES[:ulid] = { name: "ulid" }
if adapter.respond_to?(:initialize_type_map, true)
  adapter.singleton_class.prepend(UlidPg::ClassTypeMap)
  adapter::TYPE_MAP.register_type("ulid", UlidPg::Type.new) if adapter.const_defined?(:TYPE_MAP)
else
  adapter.prepend(UlidPg::InstanceTypeMap)
end
ActiveRecord::Type.register(:ulid, UlidPg::Type, adapter: :postgresql)
ActiveRecord::ConnectionAdapters::PostgreSQL::OID::Uuid.prepend(UlidPg::UuidTakesUlid)
# t.ulid in create_table blocks (what schema.rb writes for ulid columns)
ActiveRecord::ConnectionAdapters::PostgreSQL::TableDefinition.send(:define_column_methods, :ulid)
