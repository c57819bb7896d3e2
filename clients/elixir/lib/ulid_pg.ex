defmodule UlidPg do
  @moduledoc """
  The PostgreSQL `ulid` type (the ulid extension) for Elixir: the text
  (26 Crockford Base32 characters) and the 16 bytes, and the UUID text of the
  same bytes. `UlidPg.Postgrex.Extension` teaches Postgrex the type (without it
  every query touching a `ulid` column fails: "type `ulid` can not be handled
  by the types module Postgrex.DefaultTypes"); `UlidPg.Ecto.ULID` is the Ecto type.
  """
  import Bitwise

  @alphabet ~c"0123456789ABCDEFGHJKMNPQRSTVWXYZ"

  @doc "16 bytes -> the 26-character ULID text"
  def from_bytes(<<n::unsigned-128>>) do
    for i <- 25..0//-1, into: "", do: <<Enum.at(@alphabet, n >>> (5 * i) &&& 31)>>
  end

  @doc "a ULID (any case) or a UUID's text -> 16 bytes; :error otherwise"
  def to_bytes(<<_::binary-size(26)>> = text) do
    text
    |> String.upcase()
    |> String.to_charlist()
    |> Enum.reduce_while(0, fn c, acc ->
      case Enum.find_index(@alphabet, &(&1 == c)) do
        nil -> {:halt, :error}
        v -> {:cont, acc <<< 5 ||| v}
      end
    end)
    |> case do
      n when is_integer(n) and n < 1 <<< 128 -> {:ok, <<n::unsigned-128>>}
      _ -> :error
    end
  end

  def to_bytes(<<a::binary-size(8), ?-, b::binary-size(4), ?-, c::binary-size(4), ?-, d::binary-size(4), ?-, e::binary-size(12)>>),
    do: Base.decode16(a <> b <> c <> d <> e, case: :mixed)

  def to_bytes(<<_::binary-size(32)>> = hex), do: Base.decode16(hex, case: :mixed)
  def to_bytes(_), do: :error

  @doc """
  a ULID's text from a ULID (any case) or a UUID's text; :error otherwise.
  What a user gives is text: a 16-byte binary is not taken as raw bytes (a
  16-character string would be), see `load/1`.
  """
  def cast(text) when is_binary(text) do
    with {:ok, bytes} <- to_bytes(text), do: {:ok, from_bytes(bytes)}
  end

  def cast(_), do: :error

  @doc "a ULID's text from the 16 bytes the database sends, or from text as `cast/1`"
  def load(<<_::binary-size(16)>> = bytes), do: {:ok, from_bytes(bytes)}
  def load(value), do: cast(value)

  @doc "the UUID text of the same 16 bytes (what id::uuid gives)"
  def to_uuid(ulid) do
    {:ok, <<a::binary-size(4), b::binary-size(2), c::binary-size(2), d::binary-size(2), e::binary-size(6)>>} = to_bytes(ulid)
    Enum.map_join([a, b, c, d, e], "-", &Base.encode16(&1, case: :lower))
  end
end
