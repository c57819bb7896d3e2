if Code.ensure_loaded?(Postgrex) do
  defmodule UlidPg.Postgrex.Extension do
    @moduledoc """
    Postgrex: `ulid` in binary, as ULID strings (also in `ulid[]` and COPY).

        Postgrex.Types.define(MyApp.PostgrexTypes, [UlidPg.Postgrex.Extension], [])
        # then: Postgrex.start_link(types: MyApp.PostgrexTypes, ...), or in an Ecto repo's config

    A parameter takes a ULID string (any case) or a UUID's text; not a 16-byte
    binary, which a 16-character string would be (issue 43).
    """
    @behaviour Postgrex.Extension
    import Postgrex.BinaryUtils, warn: false

    def init(opts), do: opts
    def matching(_), do: [type: "ulid"]
    def format(_), do: :binary

    def encode(_) do
      quote location: :keep do
        value ->
          case UlidPg.cast(value) do
            {:ok, text} ->
              {:ok, bytes} = UlidPg.to_bytes(text)
              [<<16::int32()>> | bytes]

            :error ->
              raise DBConnection.EncodeError, Postgrex.Utils.encode_msg(value, "a ULID or a UUID's text")
          end
      end
    end

    def decode(_) do
      quote location: :keep do
        <<16::int32(), bytes::binary-size(16)>> -> UlidPg.from_bytes(bytes)
      end
    end
  end
end
