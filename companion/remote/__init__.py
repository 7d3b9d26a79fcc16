"""The players' phones as remotes: a page the box serves on the local network (off unless ``[remote] enabled``).

One module per job: join codes and tokens (:mod:`.codes`), the rate limit (:mod:`.limits`), the messages a
phone may send (:mod:`.messages`), the web app (:mod:`.app`), its thread (:mod:`.server`), the page's files
(:mod:`.assets`), the view that publishes each frame (:mod:`.view`), the phones' inputs (:mod:`.source`),
the join code on the box's screens (:mod:`.join`) and the wiring (:mod:`.wiring`). A phone can do what a
button can: every action becomes the session's own input (``Decide``, ``Roll``, ``Press``, ``Hold``) on the
box's one queue, checked by the same rules.
"""
