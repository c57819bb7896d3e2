module github.com/ulid-pg/ulid/clients/go

go 1.19

require (
	github.com/jackc/pgtype v1.10.0
	github.com/jackc/pgx/v4 v4.15.0
)
