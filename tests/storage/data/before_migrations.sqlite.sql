-- The schema before migrations: the DDL that SQLModel.metadata.create_all emitted for
-- chatbot/storage/tables.py as of eade041 (unchanged until the first migration) on sqlite,
-- with SQLAlchemy 2.1.9 and SQLModel 0.0.50. Kept as it was: tests/storage/test_migrations.py
-- builds an old database from it.

CREATE TABLE user (
	id INTEGER NOT NULL,
	platform VARCHAR NOT NULL,
	ext_id VARCHAR NOT NULL,
	name VARCHAR NOT NULL,
	lang VARCHAR,
	created_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	UNIQUE (platform, ext_id)
);

CREATE INDEX ix_user_platform ON user (platform);

CREATE TABLE room (
	id INTEGER NOT NULL,
	platform VARCHAR NOT NULL,
	ext_id VARCHAR NOT NULL,
	lang VARCHAR,
	created_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	UNIQUE (platform, ext_id)
);

CREATE INDEX ix_room_platform ON room (platform);

CREATE TABLE keyvalue (
	namespace VARCHAR NOT NULL,
	"key" VARCHAR NOT NULL,
	value JSON,
	PRIMARY KEY (namespace, "key")
);

CREATE TABLE "match" (
	id INTEGER NOT NULL,
	room_id INTEGER NOT NULL,
	game VARCHAR NOT NULL,
	options JSON NOT NULL,
	seed VARCHAR NOT NULL,
	version INTEGER NOT NULL,
	status VARCHAR NOT NULL,
	host_user_id INTEGER,
	meta JSON NOT NULL,
	created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	FOREIGN KEY(room_id) REFERENCES room (id),
	FOREIGN KEY(host_user_id) REFERENCES user (id)
);

CREATE INDEX ix_match_room_id ON "match" (room_id);

CREATE INDEX ix_match_status ON "match" (status);

CREATE TABLE seat (
	id INTEGER NOT NULL,
	match_id INTEGER NOT NULL,
	seat INTEGER NOT NULL,
	name VARCHAR NOT NULL,
	user_id INTEGER,
	ai VARCHAR,
	PRIMARY KEY (id),
	UNIQUE (match_id, seat),
	FOREIGN KEY(match_id) REFERENCES "match" (id),
	FOREIGN KEY(user_id) REFERENCES user (id)
);

CREATE INDEX ix_seat_match_id ON seat (match_id);

CREATE INDEX ix_seat_user_id ON seat (user_id);

CREATE TABLE snapshot (
	match_id INTEGER NOT NULL,
	version INTEGER NOT NULL,
	state JSON NOT NULL,
	PRIMARY KEY (match_id),
	FOREIGN KEY(match_id) REFERENCES "match" (id)
);

CREATE TABLE actionlog (
	id INTEGER NOT NULL,
	match_id INTEGER NOT NULL,
	ply INTEGER NOT NULL,
	seat INTEGER NOT NULL,
	notation VARCHAR NOT NULL,
	events JSON NOT NULL,
	at DATETIME NOT NULL,
	PRIMARY KEY (id),
	UNIQUE (match_id, ply),
	FOREIGN KEY(match_id) REFERENCES "match" (id)
);

CREATE INDEX ix_actionlog_match_id ON actionlog (match_id);
