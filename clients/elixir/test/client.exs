# The test program of ulid_pg (test/scenarios/client_elixir.sh): Postgrex and
# Ecto against a server with the ulid extension, first without
# UlidPg.Postgrex.Extension (the gap), then with it.  Prints ok / not ok lines.
#   elixir -pa <ebin dirs of postgrex, ecto, ecto_sql and theirs, and of ulid_pg> test/client.exs PORT DATABASE
[port, db] = System.argv()
for app <- [:telemetry, :db_connection, :postgrex, :ecto, :ecto_sql], do: {:ok, _} = Application.ensure_all_started(app)
opts = [hostname: "127.0.0.1", port: String.to_integer(port), username: "postgres", database: db]

defmodule T do
  def check(desc, expected, actual) do
    if expected == actual do
      IO.puts("ok - #{desc}")
    else
      Process.put(:failed, true)
      IO.puts("not ok - #{desc} (expected #{inspect(expected)}, got #{inspect(actual)})")
    end
  end
end

Postgrex.Types.define(UlidTest.Types, [UlidPg.Postgrex.Extension], [])
known = "01HTQW311N1KR5G0Y75M3EF00H"
known_uuid = "018eafc1-8435-0cf0-5803-c72d06e78011"

# without the extension: every query touching a ulid fails
Process.flag(:trap_exit, true)
{:ok, plain} = Postgrex.start_link(opts)
Postgrex.query!(plain, "CREATE TABLE items (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int, tags ulid[])", [])
gap =
  try do
    Postgrex.query(plain, "INSERT INTO items (n) VALUES (1) RETURNING id", [])
  rescue
    e -> {:raised, Exception.message(e)}
  catch
    :exit, reason -> {:exit, inspect(reason)}
  end
T.check("without UlidPg.Postgrex.Extension, RETURNING a ulid fails (the gap)", true, match?({:error, _}, gap) or match?({:raised, _}, gap) or match?({:exit, _}, gap))

{:ok, conn} = Postgrex.start_link(opts ++ [types: UlidTest.Types])
%{rows: [[id]]} = Postgrex.query!(conn, "INSERT INTO items (n) VALUES (2) RETURNING id", [])
T.check("INSERT ... RETURNING id is a ULID string", true, String.match?(id, ~r/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/))
T.check("WHERE id = $1 with it (lower case)", [[2]], Postgrex.query!(conn, "SELECT n FROM items WHERE id = $1", [String.downcase(id)]).rows)
%{rows: [[stored, uuid_text]]} = Postgrex.query!(conn, "INSERT INTO items (id, n) VALUES ($1, 3) RETURNING id, id::uuid::text", [known_uuid])
T.check("a UUID's text is stored as the ULID of its bytes; UlidPg.to_uuid gives it back", {known, known_uuid, known_uuid}, {stored, uuid_text, UlidPg.to_uuid(stored)})
Postgrex.query!(conn, "UPDATE items SET tags = $1 WHERE id = $2", [[id, known], known])
T.check("a list into a ulid[] column, and back", [[[id, known]]], Postgrex.query!(conn, "SELECT tags FROM items WHERE id = $1", [known]).rows)
T.check("id = ANY($1) with a list", [[2]], Postgrex.query!(conn, "SELECT count(*)::int FROM items WHERE id = ANY($1)", [[id, known]]).rows)
Postgrex.transaction(conn, fn c ->
  stream = Postgrex.stream(c, "COPY items (n) FROM STDIN", [])
  Enum.into(Enum.map(100..149, &"#{&1}\n"), stream)
end)
T.check("COPY ... FROM STDIN of 50 rows", [[50]], Postgrex.query!(conn, "SELECT count(*)::int FROM items WHERE n >= 100", []).rows)

# Ecto
defmodule UlidTest.Repo do
  use Ecto.Repo, otp_app: :ulid_test, adapter: Ecto.Adapters.Postgres
end

defmodule UlidTest.Item do
  use Ecto.Schema
  @primary_key {:id, UlidPg.Ecto.ULID, autogenerate: false, read_after_writes: true}
  schema "items" do
    field :n, :integer
    field :tags, {:array, UlidPg.Ecto.ULID}
  end
end

{:ok, _} = UlidTest.Repo.start_link(opts ++ [types: UlidTest.Types, log: false])
item = UlidTest.Repo.insert!(struct(UlidTest.Item, n: 4, tags: [known_uuid]))
T.check("Ecto insert!: the database's id read back; a UUID in the tags stored as its ULID", {true, [known]},
        {String.match?(item.id, ~r/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/), UlidTest.Repo.get!(UlidTest.Item, item.id).tags})
T.check("Ecto get! by a UUID's text", 3, UlidTest.Repo.get!(UlidTest.Item, known_uuid).n)
{count, rows} = UlidTest.Repo.insert_all(UlidTest.Item, Enum.map(1..20, &%{n: 200 + &1}), returning: [:id])
T.check("Ecto insert_all(returning: [:id]) of 20", {20, 20}, {count, rows |> Enum.map(& &1.id) |> Enum.uniq() |> length()})
System.halt(if Process.get(:failed), do: 1, else: 0)
