# UlidPg's codec without a server (test/scenarios/client_elixir.sh, with
# Debian's Elixir alone).  Prints ok / not ok lines.
check = fn desc, expected, actual ->
  if expected == actual do
    IO.puts("ok - #{desc}")
  else
    IO.puts("not ok - #{desc} (expected #{inspect(expected)}, got #{inspect(actual)})")
    System.at_exit(fn _ -> exit({:shutdown, 1}) end)
  end
end

known = "01HTQW311N1KR5G0Y75M3EF00H"
bytes = Base.decode16!("018EAFC184350CF05803C72D06E78011")
check.("from_bytes: 16 bytes -> the ULID text", known, UlidPg.from_bytes(bytes))
check.("to_bytes: the text (any case) -> 16 bytes", {:ok, bytes}, UlidPg.to_bytes(String.downcase(known)))
check.("cast: a UUID's text -> the ULID of its bytes", {:ok, known}, UlidPg.cast("018eafc1-8435-0cf0-5803-c72d06e78011"))
check.("to_uuid: the UUID text of the same bytes", "018eafc1-8435-0cf0-5803-c72d06e78011", UlidPg.to_uuid(known))
check.("cast refuses I, L, O, U and values above 7ZZZ...", [:error, :error],
       [UlidPg.cast("01HTQW311I1KR5G0Y75M3EF00H"), UlidPg.cast("8ZZZZZZZZZZZZZZZZZZZZZZZZZ")])
# issue 43 (F8): any 16-byte binary was taken as raw bytes, so a 16-character input was a ULID
check.("cast refuses a 16-byte binary (\"ABCDEFGHIJKLMNOP\") and a UUID's text with misplaced hyphens", [:error, :error],
       [UlidPg.cast("ABCDEFGHIJKLMNOP"), UlidPg.cast("018eafc18-435-0cf0-5803-c72d06e78011")])
check.("load: the 16 bytes from the database -> the ULID text", {:ok, known}, UlidPg.load(bytes))
check.("the largest ULID", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ", UlidPg.from_bytes(:binary.copy(<<255>>, 16)))
