# ActiveRecord 6.1 (Rails 6.1) and the ulid type: the README's recipe, as a
# Rails app puts it in config/initializers/ulid.rb.  Without it everything
# works (ulid values are Strings) except the schema dump: db/schema.rb skips
# every table with a ulid column ("Unknown type 'ulid'") but keeps their
# foreign keys, so db:schema:load fails.  With it, schema.rb writes
# `id: :ulid` and `t.ulid "item_id"`, and loads again.
require "active_record"
require "active_record/connection_adapters/postgresql_adapter"

class UlidType < ActiveRecord::Type::String
  def type
    :ulid
  end
end

# the column type name for migrations and schema.rb
ActiveRecord::ConnectionAdapters::PostgreSQLAdapter::NATIVE_DATABASE_TYPES[:ulid] = { name: "ulid" }
# the database type to the Ruby type, for every new connection
module UlidTypeMap
  private

  def initialize_type_map(m = type_map)
    super
    m.register_type "ulid", UlidType.new
  end
end
ActiveRecord::ConnectionAdapters::PostgreSQLAdapter.prepend(UlidTypeMap)
# t.ulid in create_table blocks (what schema.rb writes for ulid columns)
ActiveRecord::ConnectionAdapters::PostgreSQL::TableDefinition.send(:define_column_methods, :ulid)
