"""A player is found by their username in any case (``username__iexact``: the player's
page, the public games' filter, challenges by name), which PostgreSQL reads as
``UPPER(username)``: an index on that expression finds them without reading every
player. SQLite compares with LIKE, which this index would not serve: nothing to do."""

from django.db import migrations

INDEX = "auth_user_username_upper"


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f'CREATE INDEX IF NOT EXISTS "{INDEX}" ON "auth_user" (UPPER("username"::text))'
        )
        # The expression's statistics: without them the planner guesses 0.5% of the
        # players match a name, and reads the table in order until it finds one.
        schema_editor.execute('ANALYZE "auth_user"')


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f'DROP INDEX IF EXISTS "{INDEX}"')


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0013_profile_email_after_push_minutes"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(create, drop)]
