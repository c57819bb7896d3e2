# frozen_string_literal: true

# ActiveRecord and the ulid type.  Without this, everything works (ulid values
# are Strings) except the schema dump: db/schema.rb skips every table with a
# ulid column ("Unknown type 'ulid'") but keeps their foreign keys, so
# db:schema:load and every test database fail.  With it, schema.rb writes
# `id: :ulid` and `t.ulid "item_id"`, and loads again; `t.ulid :tags, array:
# true` is a ulid[] column read as an Array; a UUID string is taken as the
# ULID of the same bytes (stored, and found by where(id: ...)).
# Tested with ActiveRecord 6.1 (Debian 12); 7.x builds its type map on the
# class, which this also extends.
require "active_record"
require "active_record/connection_adapters/postgresql_adapter"
require "ulid_pg"

module UlidPg
  # the ulid column's attribute type: Strings, UUID strings converted
  class Type < ActiveRecord::Type::String
    def type
      :ulid
    end

    def serialize(value)
      value = super
      UlidPg.uuid?(value) ? UlidPg.from_uuid(value) : value
    end

    def cast_value(value)
      value = super
      UlidPg.uuid?(value) ? UlidPg.from_uuid(value) : value
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
# t.ulid in create_table blocks (what schema.rb writes for ulid columns)
ActiveRecord::ConnectionAdapters::PostgreSQL::TableDefinition.send(:define_column_methods, :ulid)
