# ulid-pg with ActiveRecord 6.1 (Debian's ruby-activerecord, ruby-pg): a
# migration with id: :ulid and a gen_ulid() default, create, find,
# insert_all, associations, lists, and the schema.rb dump: without the gem it
# skips the ulid tables (the gap), with it the dump loads into an empty
# database and works there; ulid[] and UUID strings through the gem's type.
# Prints ok / not ok lines.
#   ruby -I <the gem's lib> t_activerecord.rb PORT DATABASE LOAD_DATABASE
require "active_record"
require "stringio"

PORT, DB, LOAD_DB = ARGV
$failed = 0
def check(desc, expected, actual)
  if expected == actual
    puts "ok - #{desc}"
  else
    $failed += 1
    puts "not ok - #{desc} (expected #{expected.inspect}, got #{actual.inspect})"
  end
end

def connect(database)
  ActiveRecord::Base.establish_connection(adapter: "postgresql", host: "127.0.0.1", port: PORT.to_i,
                                          username: "postgres", database: database)
end

ActiveRecord::Base.logger = nil
ActiveRecord::Migration.verbose = false
connect(DB)
conn = ActiveRecord::Base.connection
ULID_RE = /\A[0-9A-HJKMNP-TV-Z]{26}\z/

class CreateItems < ActiveRecord::Migration[6.1]
  def change
    create_table :items, id: :ulid, default: -> { "gen_ulid()" } do |t|
      t.string :name
      t.bigint :sf, default: -> { "snowflake_next('twitter')" }
      t.column :tags, "ulid", array: true
    end
    create_table :parts, id: :ulid, default: -> { "gen_monotonic_ulid()" } do |t|
      t.references :item, type: :ulid, foreign_key: true, null: false
      t.integer :n
    end
  end
end
CreateItems.migrate(:up)

class Item < ActiveRecord::Base
  has_many :parts
end

class Part < ActiveRecord::Base
  belongs_to :item
end

cols = conn.select_rows(<<~SQL)
  SELECT table_name || '.' || column_name, udt_name, coalesce(column_default, '')
  FROM information_schema.columns
  WHERE table_name IN ('items', 'parts') AND udt_name = 'ulid' ORDER BY 1
SQL
check "migration: id: :ulid with gen_ulid() / gen_monotonic_ulid() defaults, t.references type: :ulid",
      [["items.id", "ulid", "gen_ulid()"], ["parts.id", "ulid", "gen_monotonic_ulid()"], ["parts.item_id", "ulid", ""]], cols
check "migration: the foreign key parts.item_id -> items", 1,
      conn.select_value("SELECT count(*) FROM pg_constraint WHERE conrelid = 'parts'::regclass AND contype = 'f'").to_i

# create: the database's default fills the id (INSERT ... RETURNING)
a = Item.create!(name: "a")
check "create!: the id is the database's ULID (a String)", [String, true], [a.id.class, ULID_RE.match?(a.id)]
check "create!: its time is now", true,
      conn.select_value("SELECT abs(extract(epoch FROM ulid_time('#{a.id}') - clock_timestamp())) < 60")
a.reload
check "reload: the Snowflake default is an Integer", [Integer, true], [a.sf.class, a.sf > 2**53]
check "find by id", "a", Item.find(a.id).name
check "find by id in lower case", a.id, Item.find(a.id.downcase).id
check "find_by(id:) of an absent id is nil", nil, Item.find_by(id: "7ZZZZZZZZZZZZZZZZZZZZZZZZZ")
uuid = conn.select_value("SELECT '#{a.id}'::ulid::uuid::text")
begin
  Item.where(id: uuid).to_a
  check "where(id: a UUID string) raises 22P02 (the hint says to cast)", "22P02", "no error"
rescue ActiveRecord::StatementInvalid => e
  check "where(id: a UUID string) raises 22P02 (the hint says to cast)", "22P02", e.cause.result.error_field(PG::Result::PG_DIAG_SQLSTATE)
end
check "where('id = ?::uuid', a UUID string) finds the row", a.id, Item.where("id = ?::uuid", uuid).first.id

# insert_all / upsert_all with RETURNING
res = Item.insert_all([{ name: "b" }, { name: "c" }], returning: %w[id name])
ids = res.rows.map(&:first)
check "insert_all returning: two ULIDs", [2, true], [ids.size, ids.all? { |i| ULID_RE.match?(i) }]
Item.upsert_all([{ id: ids[0], name: "b2" }], unique_by: :id)
check "upsert_all on the ulid key", "b2", Item.find(ids[0]).name
all_ids = [a.id] + ids
check "where(id: [...]).order(:id): the ids in time order", all_ids.sort, Item.where(id: all_ids).order(:id).pluck(:id)

# associations
p1 = a.parts.create!(n: 1)
p2 = a.parts.create!(n: 2)
check "has_many create!: ULID ids from gen_monotonic_ulid(), rising", [true, true], [ULID_RE.match?(p1.id), p2.id > p1.id]
check "belongs_to", a.id, Part.find(p2.id).item.id
check "has_many through the foreign key", [1, 2], Item.find(a.id).parts.order(:id).pluck(:n)
check "includes (eager load by ulid keys)", 2, Item.includes(:parts).find(a.id).parts.size
check "joins + where on the ulid key", 2, Part.joins(:item).where(items: { id: a.id }).count
check "pluck(ulid_time(id)) is a Time", Time, Item.where(id: a.id).pluck(Arel.sql("ulid_time(id)")).first.class

# issue 43: uuid, text, string and binary columns, without the gem and with it
conn.create_table(:legacy) do |t|
  t.uuid :u
  t.text :t
  t.string :v
  t.binary :b
end

class Legacy < ActiveRecord::Base
  self.table_name = "legacy"
end
UNTOUCHED = [[:u, "41424344-4546-4748-494a-4b4c4d4e4f50"], [:u, "{018eafc1-8435-0cf0-5803-c72d06e78011}"],
             [:t, "018eafc1-8435-0cf0-5803-c72d06e78011"], [:t, "01htqw311n1kr5g0y75m3ef00h"],
             [:v, "018eafc1-8435-0cf0-5803-c72d06e78011"], [:v, "01htqw311n1kr5g0y75m3ef00h"],
             [:b, "\x01\x8e".b], [:b, "ABCDEFGHIJKLMNOP"]].freeze
def untouched
  UNTOUCHED.map do |col, value|
    id = Legacy.create!(col => value).id
    [Legacy.find(id).public_send(col), Legacy.connection.select_value("SELECT #{col}::text FROM legacy WHERE id = #{id}")]
  end
end
before_gem = untouched
check "without ulid-pg: UUID and ULID strings and bytes into uuid, text, string and binary columns",
      ["41424344-4546-4748-494a-4b4c4d4e4f50", "018eafc1-8435-0cf0-5803-c72d06e78011"], before_gem[0..1].map(&:last)

# schema.rb without the recipe: the ulid tables are left out, their foreign keys kept
def dump(conn)
  io = StringIO.new
  ActiveRecord::SchemaDumper.dump(conn, io)
  io.string
end
plain = dump(conn)
check "schema.rb without ulid-pg: 'Unknown type' and no create_table for the ulid tables (the gap)",
      [true, false], [plain.include?("Unknown type 'ulid'"), plain.include?('create_table "items"')]

# the gem, then new connections (the type map is built per connection)
require "ulid_pg"
ActiveRecord::Base.connection_pool.disconnect!
Item.reset_column_information
conn = ActiveRecord::Base.connection
schema = dump(conn)
check "schema.rb with ulid-pg: create_table id: :ulid with the default",
      true, schema.include?('create_table "items", id: :ulid, default: -> { "gen_ulid()" }')
check "schema.rb with ulid-pg: t.ulid for the reference and the array, the foreign key", [true, true, true],
      [schema.include?('t.ulid "item_id", null: false'), schema.include?('t.ulid "tags", array: true'),
       schema.include?('add_foreign_key "parts", "items"')]
check "schema.rb with ulid-pg: the Snowflake default", true,
      schema.include?(%q{t.bigint "sf", default: -> { "snowflake_next('twitter'::snowflake_layout)" }})
check "with ulid-pg: ids are still Strings", String, Item.find(a.id).id.class
Legacy.reset_column_information
check "with ulid-pg: the same values in uuid, text, string and binary columns (nothing but ulid changes)", before_gem, untouched
# F12: ActiveRecord's uuid type made a ULID nil, and where() found nothing
lg = Legacy.create!(u: "01htqw311n1kr5g0y75m3ef01z")
check "with ulid-pg: a ULID into a uuid column is the UUID of the same bytes; where(u: ULID) finds it",
      ["018eafc1-8435-0cf0-5803-c72d06e7803f", [lg.id]], [lg.reload.u, Legacy.where(u: "01HTQW311N1KR5G0Y75M3EF01Z").pluck(:id)]
# F9: a key given in lower case or as a UUID is the canonical ULID text in memory
low = Item.create!(id: "01htqw311n1kr5g0y75m3ef00k", name: "low")
check "create!(id: lower case): the object's id is the uppercase ULID, as find gives it", ["01HTQW311N1KR5G0Y75M3EF00K", true],
      [low.id, Item.find("01htqw311n1kr5g0y75m3ef00k") == low && low.id == Item.find(low.id).id]
a.update!(tags: ids)
check "with ulid-pg: a ulid[] column takes and reads an Array", ids, Item.find(a.id).tags
check "where(tags: ...) contains", 1, Item.where("tags @> ARRAY[?]::ulid[]", ids[0]).count
u = "018eafc1-8435-0cf0-5803-c72d06e78012"
check "create!(id: a UUID string) stores the ULID of the same bytes", "01HTQW311N1KR5G0Y75M3EF00J", Item.create!(id: u, name: "u").id
check "find(a UUID string) and where(id: a UUID string) find it", ["u", 1], [Item.find(u).name, Item.where(id: u).count]
check "UlidPg.to_uuid(id) is id::uuid", conn.select_value("SELECT id::uuid::text FROM items WHERE name = 'u'"),
      UlidPg.to_uuid(Item.find_by(name: "u").id)

# db:schema:load: the dump into an empty database with the extension
connect(LOAD_DB)
begin
  eval(schema) # rubocop:disable Security/Eval -- what db:schema:load does
  lconn = ActiveRecord::Base.connection
  lcols = lconn.select_rows(<<~SQL)
    SELECT table_name || '.' || column_name, udt_name, coalesce(column_default, '')
    FROM information_schema.columns
    WHERE table_name IN ('items', 'parts') AND (udt_name IN ('ulid', '_ulid') OR column_name = 'sf') ORDER BY 1
  SQL
  check "schema.rb loads: ulid columns, defaults and the foreign key as migrated",
        [["items.id", "ulid", "gen_ulid()"], ["items.sf", "int8", "snowflake_next('twitter'::snowflake_layout)"],
         ["items.tags", "_ulid", ""],
         ["parts.id", "ulid", "gen_monotonic_ulid()"], ["parts.item_id", "ulid", ""]], lcols
  Item.reset_column_information
  Part.reset_column_information
  x = Item.create!(name: "x")
  x.parts.create!(n: 1)
  check "in the loaded schema: create! and the association", [true, 1], [ULID_RE.match?(x.id), x.parts.count]
rescue StandardError => e
  check "schema.rb with ulid-pg loads", "loaded", "#{e.class}: #{e.message.lines.first}"
end
exit($failed.zero? ? 0 : 1)
