"""The evening page's key: the watchers' token of a club night's server (``cli.live.evening``), read only.

It is made from the organiser's token (an HMAC of it), never kept apart: the same in every run, so a restart
keeps the projector's link, and a new one whenever ``--new-links`` renews the organiser's. It cannot be turned
back into the organiser's. Its one role is the watchers' (``access.WATCHERS``), so the gate refuses it every
write, and it opens neither a table nor the organiser's routes: they admit by their own keys. A token of the
links replaced is told as a wrong one (only digests of the organiser's old tokens are kept).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass

from cli.live.access import WATCHERS, Keys
from coimbra_events.store.links import ORGANISER

PURPOSE = b"coimbra evening watchers"


@dataclass(frozen=True)
class EveningKey:
    """The watchers' token of the evening page, and the id its session cookie is named for."""

    watchers: str
    id: str
    replaced: tuple[str, ...] = ()

    def roles(self) -> dict[str, str]:
        return {WATCHERS: self.watchers}


def evening_keys(organiser: Keys) -> Keys:
    """The evening page's keys, made from the organiser's."""
    secret = organiser.kept.roles()[ORGANISER].encode()
    made = hmac.new(secret, PURPOSE, hashlib.sha256).digest()
    token = base64.urlsafe_b64encode(made).rstrip(b"=").decode()
    return Keys(EveningKey(token, f"evening{organiser.kept.id}"))  # type: ignore[arg-type]


def evening_links(base: str, keys: Keys) -> dict[str, str]:
    """The evening page's link and token (``base``: ``http://HOST:PORT``), as ``--json`` and the organiser's list say them."""
    return {"evening_url": f"{base}/evening#t={keys.watchers}", "evening_token": keys.watchers}
