defmodule UlidPg.MixProject do
  use Mix.Project

  @version "1.2.0"

  def project do
    [
      app: :ulid_pg,
      version: @version,
      elixir: "~> 1.14",
      description: "The PostgreSQL ulid type (the ulid extension) for Postgrex and Ecto",
      package: [
        licenses: ["PostgreSQL"],
        links: %{"Source" => "https://github.com/ulid-pg/ulid/tree/main/clients/elixir"},
        files: ~w(lib mix.exs README.md)
      ],
      deps: deps()
    ]
  end

  def application, do: [extra_applications: []]

  defp deps do
    [
      {:postgrex, ">= 0.17.0", optional: true},
      {:ecto, ">= 3.10.0", optional: true}
    ]
  end
end
