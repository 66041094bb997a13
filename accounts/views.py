"""Account pages: profile and notifications (and who may challenge the player), the
calendar link, API tokens, vacation, the players one blocks; and the one-click
unsubscribe link of every e-mail, which works without signing in."""

from __future__ import annotations

from typing import Any

from allauth.account.views import SignupView as AllauthSignupView
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from accounts import notices
from lib.errors import ServiceError

from . import conduct, invitations, services
from .forms import BlockForm, DeleteAccountForm, ProfileForm, TokenForm, VacationForm
from .services import start_vacation, vacation_days_left

DIGEST = "digest"


@csrf_exempt  # mail clients POST here (RFC 8058); the signed token is the credential
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks to confirm (link scanners must not unsubscribe anyone); POST does it.
    A player's link stops a kind of e-mail; a stranger's, in an invitation, stops
    every invitation to their address."""
    address = services.read_no_invitations_token(token)
    if address is not None:
        return _no_invitations(request, address)
    try:
        user_id, kind = services.read_unsubscribe_token(token)
        user = User.objects.get(pk=user_id)
    except (signing.BadSignature, User.DoesNotExist, KeyError, ValueError):
        return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=404)
    if kind != DIGEST and kind not in notices.kinds():
        return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=404)
    done = False
    if request.method == "POST":
        wanted = services.profile_of(user).notifications
        # The digest's link stops everything the player had put in the digest.
        events = (
            [e for e, mode in wanted.items() if mode == "daily_digest"]
            if kind == DIGEST
            else [kind]
        )
        services.update_profile(user, {"notifications": dict.fromkeys(events, "never")})
        done = True
    label = pgettext("kind of e-mail", "daily digest") if kind == DIGEST else notices.name_of(kind)
    return render(request, "accounts/unsubscribe.html", {"kind": label, "done": done})


def _no_invitations(request: HttpRequest, address: str) -> HttpResponse:
    done = request.method == "POST"
    if done:
        conduct.never_invite(address)
    return render(request, "accounts/no_invitations.html", {"address": address, "done": done})


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)  # login_required has run
    return request.user


@login_required
@require_http_methods(["POST"])
def mail_works_again(request: HttpRequest) -> HttpResponse:
    """The player says their mailbox takes e-mails again after bounces."""
    services.mail_works_again(_user(request))
    messages.success(request, _("E-mails will be sent to your address again."))
    return redirect("profile")


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    current = services.profile_of(user)
    if request.method == "POST":
        form = ProfileForm(request.POST)
        if form.is_valid():
            saved = services.update_profile(user, form.changes())
            # Said in the language of the page it is shown on: the one just chosen, else
            # the browser's (the request's is the one the player may have just left).
            with translation.override(
                saved.language or translation.get_language_from_request(request)
            ):
                messages.success(request, _("Your settings are saved."))
            return redirect("profile")
        status = 400
    else:
        form = ProfileForm(
            initial={
                "display_name": current.display_name,
                "time_zone": current.time_zone,
                "language": current.language,
                "reminder_hours": ", ".join(str(hour) for hour in current.reminder_hours),
                "play_by_mail": current.play_by_mail,
                "computer_turn_emails": current.computer_turn_emails,
                "email_after_push_minutes": current.email_after_push_minutes,
                "challenges_from": current.challenges_from,
                **{f"notify_{e}": mode for e, mode in current.notifications.items()},
            }
        )
        status = 200
    token = current.calendar_token
    context = {
        "form": form,
        "profile": current,
        "calendar": {
            "address": services.calendar_address(token),
            "webcal": services.calendar_address(token, scheme="webcal"),
        }
        if token
        else None,
    }
    response = render(request, "accounts/profile.html", context, status=status)
    if token:
        response["Cache-Control"] = "no-store"  # the calendar's secret must not stay in a cache
    return response


@login_required
@require_POST
def make_calendar_link(request: HttpRequest) -> HttpResponse:
    """A calendar link, or a new one in place of the old (which stops working)."""
    had = services.profile_of(_user(request)).calendar_token
    services.make_calendar_link(_user(request))
    messages.success(
        request,
        _("Your new calendar link is below: the old one no longer works.")
        if had
        else _("Your calendar link is below: add it to your calendar program."),
    )
    return redirect(reverse("profile") + "#calendar")


@login_required
@require_POST
def stop_calendar_link(request: HttpRequest) -> HttpResponse:
    services.stop_calendar_link(_user(request))
    messages.success(request, _("The calendar link no longer works."))
    return redirect(reverse("profile") + "#calendar")


@login_required
@require_http_methods(["GET", "POST"])
def tokens(request: HttpRequest) -> HttpResponse:
    """List, create (the key is shown on this response only) and revoke API tokens."""
    user = _user(request)
    form = TokenForm(request.POST or None)
    key = None
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                _token, key = services.create_token(user, form.cleaned_data["token_name"])
                form = TokenForm()
                status = 201
            except ServiceError as exc:
                form.add_error(None, exc.message)
                status = 400  # the form again with the refusal, whatever the refusal's status
        else:
            status = 400
    context = {"form": form, "key": key, "tokens": user.api_tokens.all()}
    response = render(request, "accounts/tokens.html", context, status=status)
    if key:
        response["Cache-Control"] = "no-store"  # the key must not stay in a cache
    return response


@login_required
@require_POST
def revoke_token(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        services.revoke_token(_user(request), token_id)
        messages.success(request, _("The token is revoked: programs using it are shut out."))
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("tokens")


@login_required
@require_http_methods(["GET", "POST"])
def blocks(request: HttpRequest) -> HttpResponse:
    """The players I block (docs/conduct.md): block one by username (``username``), or
    lift a block (``unblock``, a username). Only I, and support staff, see this list."""
    user = _user(request)
    form = BlockForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        if "unblock" in request.POST:
            name = request.POST["unblock"]
            conduct.unblock(user, name)
            messages.success(request, _("You no longer block %(name)s.") % {"name": name})
            return redirect("blocks")
        if form.is_valid():
            try:
                blocked = conduct.block(user, form.cleaned_data["username"].strip())
            except ServiceError as exc:
                form.add_error("username", exc.message)
            else:
                messages.success(
                    request,
                    _("You block %(name)s. Nobody else is told.")
                    % {"name": blocked.get_username()},
                )
                return redirect("blocks")
        status = 400  # the form again, with the refusal beside the field
    context = {"form": form, "blocked": conduct.blocked_by_me(user)}
    return render(request, "accounts/blocks.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def vacation(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    form = VacationForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                start_vacation(user, form.cleaned_data["days"])
                messages.success(request, _("Enjoy your vacation: your clocks are stopped."))
                return redirect("vacation")
            except ServiceError as exc:
                # Not beside the field: while on vacation the page shows no form.
                form.add_error(None, exc.message)
                status = 400
        else:
            status = 400
    now = timezone.now()
    current = services.profile_of(user)
    context = {
        "form": form,
        "days_left": vacation_days_left(current, now),
        "allowance": current.vacation_allowance_days,
        "until": current.vacation_until
        if current.vacation_until and current.vacation_until > now
        else None,
    }
    return render(request, "accounts/vacation.html", context, status=status)


class SignupView(AllauthSignupView):  # type: ignore[misc]  # allauth is untyped
    """allauth's sign-up; after an e-mail invitation's link, it says who invites the
    newcomer and fills in the invited address (which then needs no confirmation)."""

    def get_initial(self) -> dict[str, Any]:
        initial: dict[str, Any] = super().get_initial()
        invitation = invitations.pending_invitation(self.request)
        if invitation is not None:
            initial.setdefault("email", invitation.email)
        return initial

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context_data(**kwargs)
        context["invitation"] = invitations.pending_invitation(self.request)
        return context


signup = SignupView.as_view()


@login_required
@require_http_methods(["GET", "POST"])
def delete_account(request: HttpRequest) -> HttpResponse:
    """Delete the account, once the player has typed their password: their games in
    play are resigned first, their finished games stay with a deleted player's seat."""
    user = _user(request)
    form = DeleteAccountForm(user, request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            resigned = services.delete_account(user)
            logout(request)
            done = (
                ngettext(
                    "Your account is deleted, and your %(count)d game in play resigned.",
                    "Your account is deleted, and your %(count)d games in play resigned.",
                    resigned,
                )
                % {"count": resigned}
                if resigned
                else _("Your account is deleted.")
            )
            messages.success(request, done)
            return redirect("lobby")
        return render(request, "accounts/delete.html", {"form": form}, status=400)
    playing = user.seat_set.filter(game__status="playing").count()
    return render(request, "accounts/delete.html", {"form": form, "playing": playing})
