# frozen_string_literal: true

require_relative "lib/ulid_pg"

Gem::Specification.new do |spec|
  spec.name = "ulid-pg"
  spec.version = UlidPg::VERSION
  spec.summary = "The PostgreSQL ulid type (the ulid extension) for ActiveRecord"
  spec.description = "Registers the ulid column type with ActiveRecord's PostgreSQL adapter " \
                     "(db/schema.rb keeps ulid tables, ulid[] as Arrays, UUID strings taken as ULIDs)."
  spec.license = "PostgreSQL"
  spec.authors = ["The ulid developers"]
  spec.homepage = "https://github.com/ulid-pg/ulid/tree/main/clients/ruby"
  spec.metadata = { "source_code_uri" => "https://github.com/ulid-pg/ulid" }
  spec.required_ruby_version = ">= 2.7"
  spec.files = ["README.md", "lib/ulid_pg.rb", "lib/ulid_pg/active_record.rb"]
  spec.add_dependency "activerecord", ">= 6.1"
  spec.add_dependency "pg", ">= 1.1"
end
