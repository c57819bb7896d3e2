if Code.ensure_loaded?(Ecto.Type) do
  defmodule UlidPg.Ecto.ULID do
    @moduledoc """
    Ecto: a `ulid` column as a ULID string; casts a ULID (any case) or a
    UUID's text, never a 16-byte binary (raw bytes come only from the database). With the
    database making the key (needs `UlidPg.Postgrex.Extension` in the repo's types):

        @primary_key {:id, UlidPg.Ecto.ULID, autogenerate: false, read_after_writes: true}
        # migration: add :id, :ulid, primary_key: true, default: fragment("gen_ulid()")
    """
    use Ecto.Type

    def type, do: :ulid
    def cast(value), do: UlidPg.cast(value)
    def load(value), do: UlidPg.load(value)
    def dump(value), do: UlidPg.cast(value)
  end
end
