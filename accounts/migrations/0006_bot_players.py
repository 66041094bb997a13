"""The three computer players: accounts with no password and no e-mail address."""

from django.db import migrations



#: As accounts.bots.BOT_PLAYERS when this migration was written.
BOT_PLAYERS = {
    "easy": ("computer-easy", "Computer (easy)"),
    "medium": ("computer-medium", "Computer (medium)"),
    "strong": ("computer-strong", "Computer (strong)"),
}


def create_bots(apps, schema_editor):
    User = apps.get_model("auth", "User")
    Profile = apps.get_model("accounts", "Profile")
    for level, (username, display_name) in BOT_PLAYERS.items():
        user, _ = User.objects.get_or_create(username=username, defaults={"password": "!"})
        Profile.objects.update_or_create(
            user=user, defaults={"bot_level": level, "display_name": display_name}
        )


def remove_bots(apps, schema_editor):
    User = apps.get_model("auth", "User")
    User.objects.filter(username__in=[u for u, _ in BOT_PLAYERS.values()]).delete()


class Migration(migrations.Migration):
    dependencies = [("accounts", "0005_bot_level"), ("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(create_bots, remove_bots)]
