#!/usr/bin/env python3
"""Generate held-out evaluation set v36 for the semantic prompt cache.

Theme: consumer technology help that non-developers ask a chat assistant:
phones (iPhone, Android), laptops and desktops (Windows 10/11, macOS,
ChromeOS, Linux desktop), office software (Excel and Google Sheets formulas,
Word, PowerPoint, Outlook, Gmail), browsers, printers and Wi-Fi routers, smart
home devices, streaming services and TVs, game consoles, cameras, backups and
cloud storage, passwords and account security, and keyboard shortcuts.

This set was written blind: from scratch, without reading the project's code,
rules, tests or any other evaluation set. Only the Python 3 standard library
is used.

Output: data/heldout_generated_v36.json next to this script, with
  * "text_pairs": must-not-hit near misses (two prompts that share almost all
    their words but need a different answer), categories:
      nm_platform_swap, nm_version_change, nm_app_swap, nm_action_reversed,
      nm_transfer_direction, nm_shortcut_key, nm_formula_detail,
      nm_error_code, nm_symptom_change, nm_setting_value, nm_scope_change,
      nm_negation, nm_brand_model_swap
  * "positives": true paraphrases (same answer, every fact kept), categories:
      pos_reworded, pos_help_wrapper, pos_casing_whitespace,
      pos_punctuation_contraction, pos_synonym, pos_greeting_thanks,
      pos_context_reordered, pos_informal_typing, pos_howto_vs_steps,
      pos_numbers_words_digits

Every category draws from at least six templates, each filled round-robin
from hand-written word lists in seeded order. Seed: random.Random(363636).
Run from the repository root:
    python3 benchmarks/caches/make_heldout_v36.py
"""

import json
import random
import re
from pathlib import Path

SEED = 363636
PER_CATEGORY = 24
MIN_TEMPLATES = 6
OUT_PATH = Path(__file__).resolve().parent / "data" / "heldout_generated_v36.json"


# ---------------------------------------------------------------------------
# Template helpers
# ---------------------------------------------------------------------------
# A template is a dict with:
#   "s": format string for the stored prompt
#   "q": format string (or callable(values) -> str) for the query; None means
#        "same format as s" (used by near misses, where a tuple value differs)
#   "fill": list of value dicts.  A value that is a 2-tuple gives the stored
#        side element 0 and the query side element 1; a plain string is shared.


def _side(values, i):
    return {k: (v[i] if isinstance(v, tuple) else v) for k, v in values.items()}


def nm(fmt, rows, keys=("x", "y", "z")):
    """Near-miss template: rows are (stored_x, query_x, shared_y, shared_z...)."""
    fill = []
    for row in rows:
        values = {keys[0]: (row[0], row[1])}
        for key, val in zip(keys[1:], row[2:]):
            values[key] = val
        fill.append(values)
    return {"s": fmt, "q": None, "fill": fill}


def pos(s_fmt, q_fmt, keys, rows):
    """Paraphrase template: rows are tuples matched to keys (a tuple value
    inside a row gives different stored/query renderings of the same fact)."""
    keys = keys.split()
    fill = []
    for row in rows:
        if not isinstance(row, tuple):
            row = (row,)
        if len(row) != len(keys):
            raise ValueError(f"row {row!r} does not match keys {keys}")
        fill.append(dict(zip(keys, row)))
    return {"s": s_fmt, "q": q_fmt, "fill": fill}


def render(fmt, values):
    if callable(fmt):
        return fmt(values)
    return fmt.format(**values)


def norm(text):
    return re.sub(r"\s+", " ", text.strip().lower())


# ---------------------------------------------------------------------------
# Near-miss categories (text_pairs): same words, different answer
# ---------------------------------------------------------------------------

NM_PLATFORM_SWAP = [
    nm("How do I take a screenshot on {x}?", [
        ("an iPhone 15", "a Samsung Galaxy S24"),
        ("a Windows 11 laptop", "a MacBook Air running macOS Sonoma"),
        ("a Chromebook", "a Windows 10 PC"),
        ("an iPad", "an Android tablet"),
    ]),
    nm("My {x} won't connect to my home Wi-Fi even though my other devices are fine. "
       "I already restarted the router. What should I try next?", [
        ("iPhone", "Android phone"),
        ("Windows 11 laptop", "MacBook Pro"),
        ("Chromebook", "Ubuntu laptop"),
        ("PlayStation 5", "Xbox Series X"),
        ("Roku TV", "Samsung smart TV"),
    ]),
    nm("Where do I find the clipboard history on {x}?", [
        ("Windows 11", "a Mac"),
        ("a Chromebook", "an iPhone"),
        ("an Android phone with Gboard", "an iPad"),
    ]),
    nm("How do I uninstall an app on {x}?", [
        ("a Mac", "Windows 11"),
        ("an iPhone", "an Android phone"),
        ("a Chromebook", "Ubuntu Linux"),
        ("a Samsung smart TV", "an LG smart TV"),
        ("an Apple TV", "a Fire TV Stick"),
    ]),
    nm("what's the keyboard shortcut to lock the screen on {x}", [
        ("Windows", "a Mac"),
        ("a Chromebook", "Ubuntu"),
        ("macOS Ventura", "Windows 11"),
    ]),
    nm("I forgot the {x} and now I'm locked out. How do I get back in without losing my photos?", [
        ("passcode on my iPhone", "PIN on my Android phone"),
        ("passcode on my iPad", "PIN on my Samsung tablet"),
        ("login password on my Windows 11 laptop", "login password on my MacBook"),
    ]),
    nm("How do I mirror my {x} screen to my TV?", [
        ("iPhone", "Android phone"),
        ("Mac", "Windows laptop"),
        ("iPad", "Chromebook"),
    ]),
    nm("How can I record my screen with sound on {x}?", [
        ("a Mac", "Windows 11"),
        ("an iPhone", "a Samsung Galaxy phone"),
        ("a Chromebook", "an iPad"),
    ]),
]

NM_VERSION_CHANGE = [
    nm("How do I move the taskbar to the left side of the screen in {x}?", [
        ("Windows 10", "Windows 11"),
        ("Windows 7", "Windows 11"),
    ]),
    nm("Where do I change the default web browser on macOS {x}?", [
        ("Ventura", "Monterey"),
        ("Sonoma", "Big Sur"),
        ("Sequoia", "Catalina"),
    ]),
    nm("Can I upgrade this PC to Windows 11? It has {x} and 16 GB of RAM.", [
        ("an Intel Core i5-7500", "an Intel Core i5-8400"),
        ("an AMD Ryzen 5 1600", "an AMD Ryzen 5 3600"),
        ("an Intel Core i7-6700", "an Intel Core i7-10700"),
        ("TPM 1.2 only", "TPM 2.0"),
    ]),
    nm("Can my iPhone {x} be updated to iOS 18?", [
        ("X", "XS"),
        ("8 Plus", "XR"),
        ("SE (1st generation)", "SE (2nd generation)"),
        ("7", "11"),
    ]),
    nm("Does the XLOOKUP function work in Excel {x}?", [
        ("2016", "2021"),
        ("2019", "365"),
        ("2013", "2024"),
        ("2019 for Mac", "2021 for Mac"),
    ]),
    nm("Does Microsoft still release security updates for {x}?", [
        ("Windows 10", "Windows 11"),
        ("Office 2016", "Office 2021"),
        ("Windows 8.1", "Windows 11"),
    ]),
    nm("How do I use {y} on my iPhone running iOS {x}?", [
        ("17", "16", "StandBy mode"),
        ("18", "17", "the option to lock and hide apps"),
        ("16", "15", "Lock Screen widgets"),
        ("17", "16", "Contact Posters"),
    ]),
    nm("Will my {x} games work on a PS5? I don't want to rebuy them.", [
        ("PS4", "PS3"),
        ("PS4 disc", "PS2 disc"),
    ]),
]

NM_APP_SWAP = [
    nm("How do I freeze the first row in {x}?", [
        ("Excel", "Google Sheets"),
        ("Excel for Mac", "Numbers"),
        ("LibreOffice Calc", "Excel"),
    ]),
    nm("I'm going on vacation next week. How do I set up an out-of-office auto reply in {x}?", [
        ("Gmail", "Outlook"),
        ("Outlook on the web", "the Outlook desktop app for Windows"),
        ("Yahoo Mail", "Gmail"),
        ("Apple Mail", "Outlook for Mac"),
    ]),
    nm("How do I track changes in {x} so my boss can see my edits?", [
        ("Word", "Google Docs"),
        ("Pages", "Word"),
        ("Google Docs", "LibreOffice Writer"),
    ]),
    nm("How can I clear the cache and cookies in {x}?", [
        ("Chrome", "Firefox"),
        ("Safari", "Microsoft Edge"),
        ("Edge", "Brave"),
        ("Firefox", "Safari on my iPhone"),
    ]),
    nm("How do I add slide numbers in {x}?", [
        ("PowerPoint", "Google Slides"),
        ("Keynote", "PowerPoint"),
    ]),
    nm("How do I share my screen during a call in {x}?", [
        ("Zoom", "Microsoft Teams"),
        ("Google Meet", "Zoom"),
        ("FaceTime", "WhatsApp"),
        ("Teams", "Skype"),
    ]),
    nm("How do I cancel my {x} subscription?", [
        ("Netflix", "Disney+"),
        ("Spotify Premium", "Apple Music"),
        ("YouTube Premium", "Amazon Prime Video"),
    ]),
    nm("My photos aren't uploading to {x} from my phone. How do I force it to sync?", [
        ("Google Photos", "iCloud Photos"),
        ("OneDrive", "Dropbox"),
        ("Amazon Photos", "Google Photos"),
    ]),
]

NM_ACTION_REVERSED = [
    nm("How do I {x} automatic updates on my Windows 11 PC?", [
        ("pause", "resume"),
        ("turn off", "turn back on"),
    ]),
    nm("How do I {x} column C in Excel?", [
        ("hide", "unhide"),
        ("group", "ungroup"),
        ("lock", "unlock"),
    ]),
    nm("How do I {x} two-factor authentication on my {y} account?", [
        ("turn on", "turn off", "Google"),
        ("turn on", "turn off", "Instagram"),
        ("enable", "disable", "Microsoft"),
        ("set up", "remove", "Facebook"),
    ]),
    nm("How do I {x} OneDrive on my Windows 10 laptop?", [
        ("pause syncing", "resume syncing"),
        ("install", "uninstall"),
        ("start syncing", "stop syncing"),
    ]),
    nm("How do I {x} someone on WhatsApp?", [
        ("block", "unblock"),
        ("mute", "unmute"),
    ]),
    nm("How do I make hidden files {x} in {y}?", [
        ("visible", "hidden again", "File Explorer on Windows 11"),
        ("visible", "hidden again", "Finder on my Mac"),
        ("visible", "hidden again", "the Files app on my Chromebook"),
    ]),
    nm("How do I {x} the microphone on my {y}?", [
        ("mute", "unmute", "Amazon Echo Dot"),
        ("turn off", "turn on", "Google Nest Mini"),
    ]),
    nm("I'm about to hand this phone down to my son. How do I {x} Find My on my {y}?", [
        ("turn on", "turn off", "iPhone 12"),
        ("enable", "disable", "iPhone SE"),
    ]),
    nm("How do I {x} a chat in WhatsApp on my {y}?", [
        ("archive", "unarchive", "iPhone"),
        ("pin", "unpin", "Android phone"),
    ]),
    nm("How do I {x} screen rotation on my {y}?", [
        ("lock", "unlock", "iPhone 11"),
        ("lock", "unlock", "Galaxy Tab A8"),
    ]),
]

NM_TRANSFER_DIRECTION = [
    nm("How do I transfer my WhatsApp chats {x}?", [
        ("from iPhone to Android", "from Android to iPhone"),
        ("from my old iPhone to my new Pixel 8", "from my old Pixel 8 to my new iPhone"),
    ]),
    nm("What's the best way to move photos {x}?", [
        ("from my iPhone to my Windows PC", "from my Windows PC to my iPhone"),
        ("from Google Photos to iCloud", "from iCloud to Google Photos"),
        ("from my Android phone to my Mac", "from my Mac to my Android phone"),
    ]),
    nm("How do I copy my contacts {x}?", [
        ("from my old Samsung phone to my new iPhone 15", "from my old iPhone 15 to my new Samsung phone"),
        ("from Outlook to Gmail", "from Gmail to Outlook"),
        ("from my SIM card to my iPhone", "from my iPhone to my SIM card"),
    ]),
    nm("How can I sync my calendar {x}?", [
        ("from Outlook to Google Calendar", "from Google Calendar to Outlook"),
        ("from iCloud to Outlook", "from Outlook to iCloud"),
    ]),
    nm("I finally switched streaming apps. How do I move my playlists {x}?", [
        ("from Spotify to Apple Music", "from Apple Music to Spotify"),
        ("from YouTube Music to Spotify", "from Spotify to YouTube Music"),
    ]),
    nm("I'm switching {x}. How do I bring my saved passwords over?", [
        ("from Chrome to Safari", "from Safari to Chrome"),
        ("from LastPass to 1Password", "from 1Password to LastPass"),
        ("from a Windows PC to a Mac", "from a Mac to a Windows PC"),
    ]),
    nm("How do I transfer my game saves {x}?", [
        ("from my PS4 to my PS5", "from my PS5 to my PS4"),
    ]),
    nm("How do I import my bookmarks {x}?", [
        ("from Firefox into Chrome", "from Chrome into Firefox"),
        ("from Safari into Edge", "from Edge into Safari"),
    ]),
    nm("How do I convert a {x} on my laptop?", [
        ("PDF to a Word document", "Word document to a PDF"),
        ("HEIC photo to JPG", "JPG photo to HEIC"),
        ("PowerPoint file to Google Slides", "Google Slides file to PowerPoint"),
    ]),
    nm("How can I move my files {x}?", [
        ("from OneDrive to Google Drive", "from Google Drive to OneDrive"),
        ("from Dropbox to iCloud Drive", "from iCloud Drive to Dropbox"),
    ]),
    nm("How do I transfer my eSIM {x}?", [
        ("from my iPhone to an Android phone", "from an Android phone to my iPhone"),
    ]),
]

NM_SHORTCUT_KEY = [
    nm("What does {x} do in Excel?", [
        ("F4", "F2"),
        ("Ctrl+;", "Ctrl+Shift+;"),
        ("Ctrl+D", "Ctrl+R"),
        ("F9", "F5"),
        ("Ctrl+1", "Ctrl+Shift+1"),
    ]),
    nm("I pressed {x} in Word and my text changed. What does that shortcut do?", [
        ("Ctrl+E", "Ctrl+J"),
        ("Ctrl+Shift+A", "Ctrl+Shift+K"),
        ("Ctrl+L", "Ctrl+R"),
        ("Ctrl+]", "Ctrl+["),
    ]),
    nm("On a Mac, is {x} the shortcut to {y}?", [
        ("Cmd+Z", "Ctrl+Z", "undo"),
        ("Cmd+Shift+4", "Ctrl+Shift+4", "take a screenshot of part of the screen"),
        ("Cmd+Q", "Cmd+W", "quit an app"),
        ("Cmd+Space", "Ctrl+Space", "open Spotlight search"),
    ]),
    nm("What happens if I press {x} on Windows 11?", [
        ("Win+L", "Win+D"),
        ("Win+V", "Win+."),
        ("Alt+Tab", "Win+Tab"),
        ("Ctrl+Shift+Esc", "Ctrl+Alt+Delete"),
    ]),
    nm("I'm using Chrome on Windows 10. What does {x} do?", [
        ("Ctrl+Shift+T", "Ctrl+Shift+N"),
        ("Ctrl+H", "Ctrl+J"),
        ("Ctrl+W", "Ctrl+Shift+W"),
        ("Ctrl+Shift+Delete", "Ctrl+Shift+B"),
    ]),
    nm("In Finder on my MacBook, what does {x} do?", [
        ("Cmd+Delete", "Cmd+Shift+Delete"),
        ("Cmd+Shift+G", "Cmd+Shift+D"),
        ("Cmd+I", "Cmd+Shift+I"),
    ]),
    nm("What is {x} supposed to do in PowerPoint?", [
        ("F5", "Shift+F5"),
        ("F7", "F5"),
        ("Ctrl+M", "Ctrl+D"),
        ("Ctrl+Shift+>", "Ctrl+Shift+<"),
    ]),
]

NM_FORMULA_DETAIL = [
    nm("Can you explain what {x} does in Excel?", [
        ('=SUMIF(B2:B50,">100")', '=COUNTIF(B2:B50,">100")'),
        ("=VLOOKUP(A2,D:E,2,FALSE)", "=VLOOKUP(A2,D:E,2,TRUE)"),
        ("=ROUND(C2,2)", "=ROUNDUP(C2,2)"),
        ("=AVERAGE(A1:A10)", "=MEDIAN(A1:A10)"),
        ("=COUNTA(A1:A100)", "=COUNTBLANK(A1:A100)"),
    ]),
    nm("I need a Google Sheets formula that adds up column C only where column A {x}.", [
        ('says "Paid"', 'does not say "Paid"'),
        ("is greater than 50", "is less than 50"),
        ("contains a date after 1/1/2024", "contains a date before 1/1/2024"),
        ("is blank", "is not blank"),
    ]),
    nm("When I copy =A1*{x} down the column in Excel, what does the formula in the second row become?", [
        ("$B$1", "B1"),
        ("B$1", "$B1"),
        ("$C$2", "C2"),
        ("$D1", "D$1"),
    ]),
    nm("My formula =SUM({x}) in Excel doesn't seem to include all my numbers. The data goes from row 1 "
       "down to row 100. What's wrong?", [
        ("A1:A10", "A1:A100"),
        ("B1:B50", "B1:B100"),
        ("C1:C99", "C1:C100"),
        ("D1:D10", "D1:D100"),
    ]),
    nm('If A2 is 70, what does =IF(A2{x},"Pass","Fail") return in Excel?', [
        (">=70", ">70"),
        ("<70", "<=70"),
        ("=70", "<>70"),
        (">60", "<60"),
    ]),
    nm("How do I write a Google Sheets formula to {x}?", [
        ("count the cells in A2:A200 that are not empty", "count the cells in A2:A200 that are empty"),
        ("find the largest value in D2:D40", "find the smallest value in D2:D40"),
        ("round the numbers in column B to two decimal places",
         "round the numbers in column B to the nearest whole number"),
        ("get the first 3 characters of the text in A2", "get the last 3 characters of the text in A2"),
    ]),
    nm('A2 contains the date 3/5/2024. What will =TEXT(A2,"{x}") show in Excel?', [
        ("dddd", "mmm"),
        ("mm/dd/yyyy", "dd/mm/yyyy"),
        ("yyyy", "yy"),
        ("mmmm", "mmm"),
    ]),
]

NM_ERROR_CODE = [
    nm("Windows Update keeps failing with error {x}. How do I fix it?", [
        ("0x80070005", "0x80070057"),
        ("0x800f081f", "0x80073712"),
        ("0x8024402c", "0x80240034"),
        ("0x80070643", "0x800f0922"),
    ]),
    nm("iTunes shows error {x} when I try to restore my iPhone. What does that mean?", [
        ("4013", "9"),
        ("3194", "4005"),
        ("14", "53"),
    ]),
    nm("Outlook won't send or receive mail and shows error {x}. What should I do?", [
        ("0x800CCC0E", "0x8004010F"),
        ("0x80040115", "0x800CCC0F"),
        ("0x80070002", "0x8004060C"),
    ]),
    nm("Every time I open a website my browser shows {x}. How do I get rid of it?", [
        ("ERR_CONNECTION_TIMED_OUT", "ERR_NAME_NOT_RESOLVED"),
        ("ERR_CERT_DATE_INVALID", "ERR_SSL_PROTOCOL_ERROR"),
        ("DNS_PROBE_FINISHED_NXDOMAIN", "ERR_TOO_MANY_REDIRECTS"),
        ("a 403 Forbidden error", "a 404 Not Found error"),
    ]),
    nm('My Brother printer\'s screen says "{x}". What do I do?', [
        ("Replace Toner", "Replace Drum"),
        ("Paper Jam Inside", "No Paper"),
        ("Toner Low", "Drum End Soon"),
    ]),
    nm("Netflix on my smart TV shows error code {x} and won't play anything.", [
        ("NW-2-5", "UI-800-3"),
        ("tvq-st-103", "NW-3-6"),
    ]),
    nm("My PS5 just showed error {x}. What does it mean?", [
        ("CE-108255-1", "WS-116332-6"),
        ("NW-102216-2", "CE-100005-6"),
    ]),
    nm("Excel shows {x} in one of my cells. What causes that?", [
        ("#N/A", "#VALUE!"),
        ("#DIV/0!", "#REF!"),
        ("#NAME?", "#SPILL!"),
        ("#####", "#NUM!"),
    ]),
]

NM_SYMPTOM_CHANGE = [
    nm("My Samsung TV has {x} when I use the HDMI port with my cable box. What should I check?", [
        ("sound but no picture", "picture but no sound"),
        ("a flickering picture", "a black screen"),
        ("an echo in the audio", 'a "No Signal" message'),
    ]),
    nm("My laptop is {x} after the latest Windows 11 update. What should I check?", [
        ("running very slowly", "not charging"),
        ("overheating", "not turning on"),
        ("not connecting to Wi-Fi", "not playing any sound"),
    ]),
    nm("My AirPods {x}. How do I fix it?", [
        ("won't connect to my iPhone", "keep disconnecting from my iPhone"),
        ("won't charge in the case", "drain really fast"),
        ("have no microphone audio on calls", "crackle when I play music"),
    ]),
    nm("Since I updated my iPhone 13 to iOS 17.5, {x}. What can I do?", [
        ("the battery drains really fast", "the phone gets really hot"),
        ("incoming calls don't ring", "calls keep dropping"),
        ("the keyboard lags", "the camera app shows a black screen"),
        ("Face ID stopped working", "the touchscreen stopped responding"),
    ]),
    nm("My HP printer {x}. How do I fix it?", [
        ("prints blank pages", "prints faded streaks"),
        ("says it's offline", "jams on every page"),
        ("prints very slowly", "won't print in color"),
    ]),
    nm("I have a TP-Link Archer router and my Wi-Fi {x}. Any ideas?", [
        ("keeps dropping every few minutes", "is really slow in the evenings"),
        ("works on my phone but not on my laptop", "works on my laptop but not on my phone"),
        ("shows connected but has no internet", "doesn't show up in the list of networks"),
    ]),
    nm("My Xbox Series X controller {x}. What's the fix?", [
        ("won't pair", "keeps drifting to the left"),
        ("won't turn on", "vibrates constantly"),
    ]),
    nm("My Ring doorbell {x}. How do I sort it out?", [
        ("won't ring the chime inside", "doesn't send notifications to my phone"),
        ("keeps going offline", "has a blurry night view"),
    ]),
    nm("My Kindle Paperwhite {x}. It started last night.", [
        ("won't turn on", "won't download books"),
        ("is stuck on a frozen screen", "won't connect to Wi-Fi"),
    ]),
]

NM_SETTING_VALUE = [
    nm("How do I switch {y} to {x}?", [
        ("dark mode", "light mode", "YouTube on my iPad"),
        ("dark mode", "light mode", "Microsoft Word on Windows 11"),
        ("dark mode", "light mode", "Gmail in Chrome"),
        ("dark mode", "light mode", "Outlook on my Mac"),
    ]),
    nm("How do I connect my {y} to the {x} Wi-Fi band on my dual-band router?", [
        ("2.4 GHz", "5 GHz", "Kasa smart plug"),
        ("2.4 GHz", "5 GHz", "Ring doorbell"),
        ("5 GHz", "2.4 GHz", "gaming laptop"),
    ]),
    nm("Can my {y} output 4K at {x} through an HDMI 2.0 port on my TV?", [
        ("60Hz", "120Hz", "PS5"),
        ("60Hz", "120Hz", "Xbox Series X"),
        ("60 fps", "120 fps", "gaming PC with an RTX 4070"),
    ]),
    nm("How do I set my iPhone camera to save photos as {x}?", [
        ("HEIC", "JPG"),
        ("ProRAW", "HEIC"),
    ]),
    nm("How do I make my {y} {x} when I close the lid?", [
        ("go to sleep", "do nothing", "Windows 11 laptop"),
        ("hibernate", "shut down", "Windows 10 laptop"),
    ]),
    nm("How do I change the clock on {y} to {x}?", [
        ("24-hour time", "12-hour time", "my Windows 10 taskbar"),
        ("24-hour time", "12-hour time", "my iPhone"),
        ("12-hour time", "24-hour time", "my Android phone"),
    ]),
    nm("How do I set the Weather app on my {y} to show {x}?", [
        ("Celsius", "Fahrenheit", "iPhone"),
        ("Fahrenheit", "Celsius", "Pixel 8"),
    ]),
    nm("Should I set my router's Wi-Fi security to {x} if some of my devices are older?", [
        ("WPA3 only", "WPA2/WPA3 mixed mode"),
        ("WPA2-Personal", "WEP"),
    ]),
    nm("How do I set my Android phone's screen timeout to {x}?", [
        ("1 minute", "never"),
        ("10 minutes", "never"),
    ]),
    nm("How do I set the picture mode on my {y} to {x}?", [
        ("Game Mode", "Filmmaker Mode", "LG C3 TV"),
        ("Vivid", "Movie", "Samsung TV"),
    ]),
]

NM_SCOPE_CHANGE = [
    nm("How do I delete {x} in Gmail?", [
        ("one email", "all emails from one sender"),
        ("this conversation", "every email in my Promotions tab"),
        ("one draft", "all my drafts"),
        ("one label", "all my labels"),
    ]),
    nm("How do I sign out of {y} on {x}?", [
        ("this device", "all devices", "Netflix"),
        ("this phone", "every device", "my Google account"),
        ("this computer", "all my devices", "Microsoft Teams"),
        ("this laptop", "all devices", "Spotify"),
    ]),
    nm("How do I change the font for {x} in Word?", [
        ("just this paragraph", "the whole document"),
        ("the selected text", "all new documents"),
        ("this heading", "every heading"),
    ]),
    nm("How do I apply a formula to {x} in Excel?", [
        ("one cell", "an entire column"),
        ("the whole column", "only the visible filtered rows"),
    ]),
    nm("My MacBook died yesterday. How do I restore {x} from my Time Machine backup?", [
        ("a single file", "my entire Mac"),
        ("one folder", "all my files"),
        ("one deleted photo", "my whole Photos library"),
    ]),
    nm("How do I turn off notifications for {x} on my iPhone?", [
        ("one app", "all apps"),
        ("a single group chat in Messages", "all of Messages"),
        ("one contact", "everyone except my favorites"),
    ]),
    nm("How do I share {x} in Google Drive with a coworker?", [
        ("one file", "an entire folder"),
        ("a whole Google Sheets file", "only one tab of a Google Sheets file"),
    ]),
    nm("How do I clear the browsing history for {x} in Chrome?", [
        ("just one website", "everything"),
        ("the last hour", "all time"),
    ]),
    nm("How do I print {x} in Excel?", [
        ("only the selected area", "the entire workbook"),
        ("just this sheet", "every sheet"),
    ]),
]

NM_NEGATION = [
    nm("Why {x} my iPhone {y}?", [
        ("does", "doesn't", "connect to my car's Bluetooth automatically"),
        ("does", "doesn't", "show message previews on the lock screen"),
        ("does", "doesn't", "back up to iCloud overnight"),
        ("does", "doesn't", "turn Wi-Fi back on by itself"),
    ]),
    nm("My {y} {x} when I close the lid. How do I change that?", [
        ("goes to sleep", "doesn't go to sleep", "Windows 11 laptop"),
        ("goes to sleep", "doesn't go to sleep", "Dell laptop with Windows 10"),
        ("locks", "doesn't lock", "MacBook Air"),
    ]),
    nm("Which {y} {x}?", [
        ("include ads", "don't include ads", "Netflix plans"),
        ("support iOS 18", "don't support iOS 18", "iPhone models"),
        ("work with Apple HomeKit", "don't work with Apple HomeKit", "Ring products"),
        ("support 4K streaming", "don't support 4K streaming", "Roku players"),
    ]),
    nm("I {x} want {y}. Which setting do I need to change?", [
        ("really", "don't", "my iPhone photos to upload to iCloud"),
        ("really", "don't", "Chrome to save my passwords"),
        ("really", "don't", "my Android phone to update apps automatically"),
        ("really", "don't", "Windows 11 to restart automatically after updates"),
    ]),
    nm("Can I {y} {x}?", [
        ("with a USB cable", "without a USB cable", "use a PS5 controller on my Windows PC"),
        ("with a Microsoft account", "without a Microsoft account", "set up Windows 11 Home"),
        ("with a Nintendo Switch Online membership", "without a Nintendo Switch Online membership",
         "play Mario Kart 8 online"),
    ]),
    nm("Why {x} {y}?", [
        ("does", "doesn't", "Excel recalculate my formulas when I change a cell"),
        ("does", "doesn't", "Google Drive sync my Desktop folder"),
        ("does", "doesn't", "Outlook show a reminder before my meetings"),
    ]),
    nm("How do I highlight the cells in {y} that {x} in Excel?", [
        ("contain a formula", "don't contain a formula", "column B"),
        ("are blank", "aren't blank", "A2:A200"),
        ("are duplicates", "aren't duplicates", "column C"),
    ]),
]

NM_BRAND_MODEL_SWAP = [
    nm("How do I factory reset my {x} router?", [
        ("TP-Link Archer AX21", "Netgear Nighthawk R7000"),
        ("Eero 6", "Google Nest Wifi"),
        ("Linksys Velop", "ASUS RT-AX86U"),
        ("Xfinity xFi Gateway", "Verizon Fios"),
    ]),
    nm("We changed our Wi-Fi password yesterday. How do I connect my {x} printer to the network again?", [
        ("HP DeskJet 2755e", "Canon PIXMA TS3520"),
        ("Epson EcoTank ET-2800", "Brother HL-L2350DW"),
        ("HP Envy 6055e", "Canon PIXMA TR4720"),
    ]),
    nm("How do I add my Philips Hue lights to {x}?", [
        ("Amazon Alexa", "Google Home"),
        ("Apple Home", "SmartThings"),
    ]),
    nm("How do I set up {x} with Alexa?", [
        ("a Ring doorbell", "a Nest doorbell"),
        ("a Roomba", "a Eufy robot vacuum"),
    ]),
    nm("How do I update the firmware on my {x}?", [
        ("Sony A7 IV camera", "Canon EOS R6 camera"),
        ("Nikon Z6 II", "Fujifilm X-T4"),
        ("GoPro HERO12", "DJI Osmo Action 4"),
    ]),
    nm("How do I turn on closed captions on my {x}?", [
        ("Roku", "Fire TV Stick"),
        ("LG TV", "Samsung TV"),
        ("Apple TV", "Chromecast with Google TV"),
        ("Xbox Series S", "PS5"),
    ]),
    nm("How do I add a second controller to my {x}?", [
        ("Nintendo Switch", "PS5"),
        ("Xbox Series S", "PS4"),
    ]),
    nm("I forgot my password. How do I reset my {x} account password?", [
        ("Microsoft", "Apple ID"),
        ("PlayStation Network", "Nintendo"),
        ("Amazon", "Google"),
    ]),
    nm("How do I get the videos off my {x} and onto my computer?", [
        ("GoPro HERO11", "Canon PowerShot G7 X"),
        ("DJI Mini 3 drone", "Ring camera"),
    ]),
]


# ---------------------------------------------------------------------------
# Positive categories: same answer, every fact kept
# ---------------------------------------------------------------------------

POS_REWORDED = [
    pos("How do I stop my {d} screen from turning off so quickly?",
        "How can I make the display on my {d} stay on longer before it locks?",
        "d", ["iPhone 13", "Galaxy S22", "Pixel 7", "iPad Air"]),
    pos("What's the quickest way to free up storage on my {d}?",
        "My {d} is running out of space. What's the fastest way to clear some room on it?",
        "d", ["iPhone 12", "Galaxy A53", "MacBook Air", "Windows 11 laptop"]),
    pos("My {p} printer shows as offline in Windows 11. How do I get it back online?",
        "Windows 11 keeps listing my {p} printer as offline. What do I do to bring it back online?",
        "p", ["HP DeskJet 4155e", "Canon PIXMA MG3620", "Epson EcoTank ET-2720", "Brother MFC-L2710DW"]),
    pos("How do I see the password of the Wi-Fi network I'm connected to right now on {o}?",
        "Where can I find the saved password for my current Wi-Fi network on {o}?",
        "o", ["Windows 11", "a Mac running macOS Ventura", "an iPhone with iOS 17", "an Android 13 phone"]),
    pos("How can I make Excel keep the leading zeros in {r}?",
        "Excel keeps dropping the zeros at the start of the numbers in {r}. How do I stop that?",
        "r", ["column A", "cells B2:B200", "my ZIP code column", "the phone number column"]),
    pos("How do I stop {a} from opening automatically when my {c} starts up?",
        "What's the way to prevent {a} from launching on its own every time I boot my {c}?",
        "a c", [("Spotify", "Windows 11 PC"), ("Microsoft Teams", "Windows 10 laptop"),
                ("Steam", "Mac"), ("OneDrive", "Windows 11 laptop")]),
    pos("Is it possible to recover {f} I deleted from {s} last week?",
        "Last week I deleted {f} from {s}. Is there any way to get it back?",
        "f s", [("a photo", "my iPhone"), ("a file", "Google Drive"),
                ("an email", "Gmail"), ("a document", "OneDrive")]),
    pos("Why is my {d} so slow to charge?",
        "What makes my {d} take so long to charge?",
        "d", ["Galaxy S21", "iPhone 11", "Nintendo Switch", "Dell XPS 13"]),
]

WRAPPER_TASKS = [
    "turn on Do Not Disturb on an iPhone running iOS 17",
    "add a signature in Outlook for Windows",
    "set up Time Machine backups on macOS Sonoma",
    "remove the background from a picture in PowerPoint",
    "merge cells A1:D1 in Google Sheets",
    "connect a PS5 controller to an iPhone",
    "change the DNS server on a Windows 11 PC",
    "enable two-factor authentication on an Instagram account",
    "cast YouTube from an Android phone to a Chromecast",
    "set up a guest Wi-Fi network on a TP-Link Archer router",
    "insert a table of contents in Microsoft Word",
    "schedule an email to send later in Gmail",
    "turn on Night Light in Windows 10",
    "export contacts from Gmail to a CSV file",
    "create a drop-down list in cells C2:C50 in Excel",
    "set parental controls on a Nintendo Switch",
    "update the apps on a Samsung smart TV",
    "use the Snipping Tool to capture part of the screen in Windows 11",
    "add a printer on a Chromebook",
    "turn off autocorrect on a Samsung Galaxy phone",
    "pair an Apple Watch with a new iPhone",
    "share a Google Calendar with my spouse",
    "password-protect an Excel workbook",
    "set up Google Assistant on a Nest Hub",
    "add a shared mailbox in Outlook",
    "turn off location history on an Android phone",
    "move the Windows 11 Start button back to the left",
    "find my lost AirPods with Find My",
]

_WRAPPERS = [
    ("How do I {t}?", "Can you explain how to {t}?"),
    ("How do I {t}?", "Walk me through how to {t}."),
    ("What's the way to {t}?", "I need help figuring out how to {t}."),
    ("How can I {t}?", "Could you show me how to {t}?"),
    ("Explain how to {t}.", "I'd like some help learning how to {t}."),
    ("How do I {t}?", "Please tell me how to {t}."),
    ("Can you help me {t}?", "I need help: how do I {t}?"),
]
POS_HELP_WRAPPER = [
    pos(s, q, "t", WRAPPER_TASKS[i::len(_WRAPPERS)]) for i, (s, q) in enumerate(_WRAPPERS)
]


def _title_words(text):
    return " ".join(w[:1].upper() + w[1:] for w in text.split(" "))


def _spaced(text):
    return text.replace(" ", "  ").replace("?", " ?")


def _padded(text):
    return "   " + text + "  \n"


def _lower_spaced_question(text):
    return text.lower().rstrip("?.") + " ?"


CASE_TRANSFORMS = [str.lower, str.upper, _spaced, _padded, _title_words, _lower_spaced_question]


def _casing(fmt, keys, rows, transform):
    return pos(fmt, lambda v, f=fmt, tr=transform: tr(f.format(**v)), keys, rows)


POS_CASING_WHITESPACE = [
    _casing("How do I turn off {f} on my {d}?", "f d",
            [("Siri suggestions", "iPhone 14"), ("Bixby", "Galaxy S23"),
             ("read receipts in iMessage", "iPhone"), ("the startup sound", "MacBook Pro"),
             ("SafeSearch", "Chromebook")], CASE_TRANSFORMS[0]),
    _casing("My {d} won't turn on after the {u} update. What should I do?", "d u",
            [("Apple Watch Series 7", "watchOS 10"), ("HP laptop", "Windows 11"),
             ("Galaxy Tab S8", "One UI 6"), ("Kindle Paperwhite", "latest software"),
             ("Roku Ultra", "Roku OS 12")], CASE_TRANSFORMS[1]),
    _casing("Where is the {s} setting in {a}?", "s a",
            [("AutoSave", "Excel for Mac"), ("reading pane", "Outlook"),
             ("default font", "Google Docs"), ("Do Not Track", "Firefox"),
             ("Low Data Mode", "iOS 17")], CASE_TRANSFORMS[2]),
    _casing("How do I add a {x} to {a}?", "x a",
            [("second email account", "the Mail app on my iPhone"), ("shared calendar", "Outlook"),
             ("checkbox", "a Google Sheets cell"), ("watermark", "a Word document"),
             ("new device", "my Google Home app")], CASE_TRANSFORMS[3]),
    _casing("Can I use {x} with my {d}?", "x d",
            [("an Xbox controller", "iPad"), ("an Apple Pencil 2", "iPad (10th generation)"),
             ("AirPods", "Samsung phone"), ("a Google Nest speaker", "iPhone"),
             ("a USB-C hub", "Nintendo Switch")], CASE_TRANSFORMS[4]),
    _casing("Why does my {d} keep {p}?", "d p",
            [("Fire TV Stick", "buffering"), ("Roku", "restarting"),
             ("Ring camera", "going offline"), ("laptop fan", "running so loudly"),
             ("Galaxy Watch", "disconnecting from my phone")], CASE_TRANSFORMS[5]),
]

POS_PUNCTUATION_CONTRACTION = [
    pos("My {d} won't charge. What's wrong with it?",
        "My {d} will not charge - what is wrong with it",
        "d", ["iPhone 12", "Galaxy Buds2", "Apple Watch SE", "Logitech mouse"]),
    pos("I can't find the {s} option in {a}. Where is it?",
        "I cannot find the {s} option in {a}; where is it??",
        "s a", [("Print Titles", "Excel"), ("Focused Inbox", "Outlook"),
                ("Version history", "Google Docs"), ("Reader View", "Safari")]),
    pos("Why doesn't {a} open on my {d}?",
        "Why does {a} not open on my {d}...",
        "a d", [("Microsoft Word", "Mac"), ("the Disney+ app", "LG TV"),
                ("Steam", "Windows 11 PC"), ("Chrome", "Chromebook")]),
    pos("I've forgotten my {a} password; how do I reset it?",
        "I have forgotten my {a} password. How do I reset it?",
        "a", ["Wi-Fi router admin", "Apple ID", "Windows 11 local account", "Hulu"]),
    pos("What's the shortcut to {t} in {a}?",
        "What is the shortcut to {t} in {a}",
        "t a", [("insert a new comment", "Word"), ("start a new line inside a cell", "Excel"),
                ("mute myself", "Zoom"), ("open a new incognito window", "Chrome")]),
    pos("{a} isn't syncing on my {d}, what do I do?",
        "{a} is not syncing on my {d}. What do I do?",
        "a d", [("OneDrive", "Windows 10 laptop"), ("iCloud Drive", "MacBook Air"),
                ("Google Drive", "Android phone"), ("Dropbox", "iPad")]),
    pos("It's been an hour and my {d} is still stuck on \"{m}\". Should I restart it?",
        "It has been an hour, and my {d} is still stuck on \"{m}\" - should I restart it?",
        "d m", [("iPhone", "Preparing Update"), ("Windows 11 PC", "Working on updates"),
                ("PS5", "Installing update"), ("Mac", "Less than a minute remaining")]),
]

POS_SYNONYM = [
    pos("How do I turn on {f} on my {d}?", "How do I enable {f} on my {d}?",
        "f d", [("Bluetooth", "Windows 11 laptop"), ("Wi-Fi calling", "iPhone 14"),
                ("battery saver", "Pixel 7"), ("closed captions", "Roku")]),
    pos("How do I switch off {f} on my {d}?", "How do I disable {f} on my {d}?",
        "f d", [("auto-brightness", "iPhone 15"), ("the touchpad", "Lenovo laptop with Windows 10"),
                ("voice assistant", "Samsung TV"), ("automatic updates", "Xbox Series X")]),
    pos("How can I fix the {p} issue on my Windows {v} computer?",
        "How can I solve the {p} issue on my Windows {v} PC?",
        "p v", [("frozen taskbar", "11"), ("Bluetooth mouse disconnecting", "10"),
                ("microphone not being detected", "11"), ("blurry second monitor", "10")]),
    pos("What's the best way to sort out {p} in {a}?", "What's the best way to fix {p} in {a}?",
        "p a", [("duplicate contacts", "Gmail"), ("broken links", "a Word document"),
                ("numbers stored as text", "Excel"), ("a full mailbox", "Outlook")]),
    pos("How do I erase my {d} before selling it?", "How do I wipe my {d} before selling it?",
        "d", ["iPhone 11", "MacBook Pro", "Galaxy S20", "PS4"]),
    pos("How do I remove {x} from my {d}?", "How do I delete {x} from my {d}?",
        "x d", [("a saved Wi-Fi network", "Android phone"), ("an old fingerprint", "iPhone 8"),
                ("a user profile", "Netflix account"), ("a paired Bluetooth device", "Mac")]),
    pos("My {d} is running slow. How do I speed it up?", "My {d} is sluggish. How do I make it faster?",
        "d", ["Windows 10 PC", "iPad (8th generation)", "Chromebook", "Fire TV Stick"]),
    pos("How do I hook up my {d} to my TV?", "How do I connect my {d} to my TV?",
        "d", ["Nintendo Switch", "MacBook Air", "Windows 11 laptop", "soundbar"]),
]

GREETING_QUESTIONS = [
    "How do I set up voicemail on my iPhone 15?",
    "Why is my Epson printer printing blank pages?",
    "How do I turn off predictive text on a Pixel 8?",
    "How can I see how much storage is left in my iCloud account?",
    "What's the shortcut to paste without formatting in Word on Windows?",
    "How do I change the name of my Wi-Fi network on an Eero router?",
    "How do I connect a Bluetooth speaker to my Windows 11 laptop?",
    "How do I stop YouTube from autoplaying the next video?",
    "How can I check the battery health on a Samsung Galaxy S22?",
    "How do I set up a recurring meeting in Outlook?",
    "How do I sort column B from largest to smallest in Google Sheets?",
    "How do I log out of Amazon Prime Video on a friend's TV?",
    "Why won't my Apple TV remote pair?",
    "How do I save a Google Doc as a PDF?",
    "How do I reset my Gmail password if I lost my phone?",
    "How do I turn on subtitles for Disney+ on my Roku?",
    "What's the difference between iCloud Drive and iCloud Photos?",
    "How do I stop my Chromebook from going to sleep?",
    "How can I back up my Android phone to Google Drive?",
    "How do I print address labels from an Excel list using Word?",
    "How do I check if my Windows 10 PC has a virus?",
    "How do I set up a new Nest Mini in the Google Home app?",
    "How do I change my Xbox gamertag?",
    "How do I find the MAC address of my Android phone?",
]

_GREETINGS = [
    ("{q}", "Hi! {q}"),
    ("{q}", "{q} Thanks!"),
    ("{q}", "Hello, quick question. {q}"),
    ("{q}", "{q} Thanks in advance for any help."),
    ("{q}", "Hey there! {q} Cheers."),
    ("{q}", "Good morning. {q} I'd really appreciate it."),
    ("Hello! {q}", "{q} Many thanks."),
]
POS_GREETING_THANKS = [
    pos(s, q, "q", GREETING_QUESTIONS[i::len(_GREETINGS)]) for i, (s, q) in enumerate(_GREETINGS)
]

# Context items: three order-independent fact sentences and a final question.
CONTEXT_ITEMS = [
    (["I have an HP OfficeJet Pro 9015e printer.", "My laptop runs Windows 11.",
      "The printer and the laptop are on the same Wi-Fi network."],
     "How do I get the laptop to find the printer?"),
    (["My iPhone 14 is on iOS 17.4.", "My car is a 2019 Honda Civic.",
      "CarPlay used to work fine with a USB cable."],
     "Why did CarPlay stop showing up when I plug the phone in?"),
    (["I use Excel 365 on a Mac.", "My sales numbers are in column B, rows 2 to 200.",
      "The region names are in column A."],
     'How do I total the sales for the region "West" only?'),
    (["I pay for the Netflix Standard plan.", "My TV is a 2021 LG OLED.",
      "Netflix only plays in HD on the LG OLED, never in 4K."],
     "Why can't I get 4K?"),
    (["My router is a Netgear Nighthawk RAX50.", "I bought four TP-Link Kasa smart plugs.",
      "The Kasa plugs only support 2.4 GHz Wi-Fi."],
     "How do I get the smart plugs to connect?"),
    (["I have a Google Pixel 8.", "I'm switching to an iPhone 15 next week.",
      "There are about 2,000 photos and all my WhatsApp chats on the Pixel."],
     "What's the best way to move everything over?"),
    (["My MacBook Air runs macOS Sonoma.", "I back up to a 2 TB Seagate external drive.",
      "Time Machine says the backup disk is full."],
     "What should I do so the backups keep running?"),
    (["My PS5 is in the living room.", "Our router is upstairs in the office.",
      "Online games on the PS5 keep lagging."],
     "Should I run a cable or get a mesh Wi-Fi system?"),
    (["I use Outlook on Windows 10.", "I added my Gmail account to Outlook last week.",
      "Emails I send from Outlook don't appear in Gmail's Sent folder on my phone."],
     "How do I fix that?"),
    (["My mom has an iPad (9th generation).", "My mom keeps forgetting her Apple ID password.",
      "My mom's phone number hasn't changed."],
     "How can she reset the Apple ID password from the iPad?"),
    (["My Canon EOS R50 is set to shoot RAW.", "I edit photos on a Windows 11 PC.",
      "The Windows Photos app shows my CR3 files as blank thumbnails."],
     "How do I view the RAW files?"),
    (["I use a Samsung Galaxy S23.", "My Google account has 15 GB of storage.",
      "Google says my account storage is full."],
     "What can I delete to free up space?"),
    (["Our Ring Video Doorbell is hardwired.", "The Wi-Fi signal at our front door is weak.",
      "Live View in the Ring app keeps failing to load."],
     "How can I make Live View work reliably?"),
]

_ORDER_PATTERNS = [
    ((0, 1, 2), (1, 0, 2)),
    ((0, 1, 2), (2, 0, 1)),
    ((0, 1, 2), (1, 2, 0)),
    ((1, 0, 2), (2, 1, 0)),
    ((0, 2, 1), (1, 0, 2)),
    ((2, 0, 1), (0, 2, 1)),
]


def _ordered(order):
    return lambda v, o=order: " ".join([v["facts"][i] for i in o] + [v["question"]])


POS_CONTEXT_REORDERED = []
for _k, (_s_order, _q_order) in enumerate(_ORDER_PATTERNS):
    _items = [
        {"facts": facts, "question": question}
        for idx, (facts, question) in enumerate(CONTEXT_ITEMS)
        if idx % len(_ORDER_PATTERNS) == _k or (idx + 3) % len(_ORDER_PATTERNS) == _k
    ]
    POS_CONTEXT_REORDERED.append({"s": _ordered(_s_order), "q": _ordered(_q_order), "fill": _items})


def _informal(fmt):
    return lambda v, f=fmt: f.format(**v).lower()


POS_INFORMAL_TYPING = [
    pos("How do I {t} on my {d}?", _informal("how do i {t} on my {d} pls"),
        "t d", [("turn off the keyboard clicking sound", "iPhone"), ("change the wallpaper", "Galaxy A54"),
                ("clear the cache", "Fire TV Stick"), ("update the system software", "PS5")]),
    pos("Can you tell me how to {t} in {a}?", _informal("can u tell me how to {t} in {a}"),
        "t a", [("undo a sent email", "Gmail"), ("add page numbers", "Google Docs"),
                ("make a pie chart", "Excel"), ("blur my background", "Zoom")]),
    pos("My {d} {p}. What should I do?", _informal("my {d} {p} what should i do??"),
        "d p", [("Pixel 6", "keeps restarting on its own"), ("Roku TV", "has no sound"),
                ("Canon printer", "says there's a paper jam but there's no paper inside"),
                ("MacBook Air", "won't wake up from sleep")]),
    pos("Thanks! One more question: how do I {t} on {d}?", _informal("thx! one more q, how do i {t} on {d}"),
        "t d", [("change my Wi-Fi password", "a Netgear router"), ("turn on dark mode", "Windows 11"),
                ("hide the Dock", "my Mac"), ("see my screen time", "an Android phone")]),
    pos("Is there a way to {t} on my {d}?", _informal("is there a way to {t} on my {d}??"),
        "t d", [("block spam calls", "iPhone 13"), ("use two WhatsApp accounts", "Samsung phone"),
                ("record TV shows", "Fire TV Cube"), ("run Android apps", "Chromebook")]),
    pos("Please help: {a} keeps {p} on my {d}.", _informal("pls help {a} keeps {p} on my {d}"),
        "a p d", [("Chrome", "crashing", "Windows 10 PC"), ("Spotify", "pausing by itself", "iPhone"),
                  ("Outlook", "asking for my password", "laptop"),
                  ("Instagram", "logging me out", "Android phone")]),
    pos("Do you know why my {d} {p}?", _informal("u know why my {d} {p}"),
        "d p", [("Apple Watch", "won't unlock my Mac"), ("Echo Dot", "keeps flashing yellow"),
                ("Switch", "won't read game cards"), ("iPad", "is so hot when charging")]),
]

STEP_TASKS = [
    "set up Face ID on an iPhone 13",
    "connect an HP printer to Wi-Fi using the HP Smart app",
    "restore a MacBook Pro from a Time Machine backup",
    "add a new user account on Windows 11",
    "set up a VPN on an Android phone",
    "create a pivot table from A1:F500 in Excel",
    "move photos from an SD card to Google Photos",
    "install Ubuntu alongside Windows 10",
    "reset an Xfinity router to factory settings",
    "set up a Ring doorbell in the Ring app",
    "change the default printer on a Mac",
    "add a Google account to the Mail app on an iPhone",
    "set up Family Sharing on an iPhone",
    "mirror a Windows 11 laptop to a Roku TV",
    "do a mail merge in Word using a Google Sheet",
    "turn on BitLocker on Windows 11 Pro",
    "move a Steam game to another drive",
    "save passwords in Google Password Manager on a Chromebook",
    "enable HDR on a PS5",
    "add a fingerprint on a Galaxy S24",
    "make a shared album in iCloud Photos",
    "create an Outlook rule that moves emails from one sender into a folder",
    "reinstall macOS from Recovery",
    "connect a Nest thermostat to Google Home",
]

_STEP_FORMS = [
    ("How do I {t}?", "What are the steps to {t}?"),
    ("How can I {t}?", "What steps do I follow to {t}?"),
    ("How would I {t}?", "Can you list the steps to {t}?"),
    ("What's the procedure to {t}?", "How do I {t}?"),
    ("How do I {t}? Step by step, please.", "Give me step-by-step instructions to {t}."),
    ("How do you {t}?", "What steps are needed to {t}?"),
]
POS_HOWTO_VS_STEPS = [
    pos(s, q, "t", STEP_TASKS[i::len(_STEP_FORMS)]) for i, (s, q) in enumerate(_STEP_FORMS)
]

NUMBER_WORDS = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
    9: "nine", 10: "ten", 12: "twelve", 15: "fifteen", 20: "twenty", 30: "thirty",
    45: "forty-five",
}


def _nums(values):
    return [((str(n), NUMBER_WORDS[n]),) for n in values]


POS_NUMBERS_WORDS_DIGITS = [
    pos("How do I insert {n} blank rows at once in Excel?",
        "How do I insert {n} blank rows at once in Excel?", "n", _nums([3, 5, 10, 20])),
    pos("How do I set my iPhone to auto-lock after {n} minutes?",
        "How do I set my iPhone to auto-lock after {n} minutes?", "n", _nums([2, 3, 4, 5])),
    pos("My Galaxy S21's battery only lasts about {n} hours now. Is that normal?",
        "My Galaxy S21's battery only lasts about {n} hours now. Is that normal?", "n", _nums([4, 6, 8])),
    pos("How can I make my Windows 11 PC go to sleep after {n} minutes of inactivity?",
        "How can I make my Windows 11 PC go to sleep after {n} minutes of inactivity?",
        "n", _nums([10, 15, 30, 45])),
    pos("Can {n} people stream at the same time on one Netflix Standard plan?",
        "Can {n} people stream at the same time on one Netflix Standard plan?", "n", _nums([2, 3, 4])),
    pos("How do I split the text in column A into {n} columns in Google Sheets?",
        "How do I split the text in column A into {n} columns in Google Sheets?", "n", _nums([2, 3, 4, 5])),
    pos("My Wi-Fi router is {n} years old. Should I replace it?",
        "My Wi-Fi router is {n} years old. Should I replace it?", "n", _nums([5, 7, 9, 12])),
    pos("How do I print {n} copies of a document double-sided in Word?",
        "How do I print {n} copies of a document double-sided in Word?", "n", _nums([2, 6, 15, 30])),
]


NEAR_MISS_CATEGORIES = [
    ("nm_platform_swap", NM_PLATFORM_SWAP),
    ("nm_version_change", NM_VERSION_CHANGE),
    ("nm_app_swap", NM_APP_SWAP),
    ("nm_action_reversed", NM_ACTION_REVERSED),
    ("nm_transfer_direction", NM_TRANSFER_DIRECTION),
    ("nm_shortcut_key", NM_SHORTCUT_KEY),
    ("nm_formula_detail", NM_FORMULA_DETAIL),
    ("nm_error_code", NM_ERROR_CODE),
    ("nm_symptom_change", NM_SYMPTOM_CHANGE),
    ("nm_setting_value", NM_SETTING_VALUE),
    ("nm_scope_change", NM_SCOPE_CHANGE),
    ("nm_negation", NM_NEGATION),
    ("nm_brand_model_swap", NM_BRAND_MODEL_SWAP),
]

POSITIVE_CATEGORIES = [
    ("pos_reworded", POS_REWORDED),
    ("pos_help_wrapper", POS_HELP_WRAPPER),
    ("pos_casing_whitespace", POS_CASING_WHITESPACE),
    ("pos_punctuation_contraction", POS_PUNCTUATION_CONTRACTION),
    ("pos_synonym", POS_SYNONYM),
    ("pos_greeting_thanks", POS_GREETING_THANKS),
    ("pos_context_reordered", POS_CONTEXT_REORDERED),
    ("pos_informal_typing", POS_INFORMAL_TYPING),
    ("pos_howto_vs_steps", POS_HOWTO_VS_STEPS),
    ("pos_numbers_words_digits", POS_NUMBERS_WORDS_DIGITS),
]


# ---------------------------------------------------------------------------
# Generation
# ---------------------------------------------------------------------------

def build_category(rng, name, templates, n, seen, near_miss):
    """Round-robin over templates; each template's fill list is shuffled."""
    if len(templates) < MIN_TEMPLATES:
        raise ValueError(f"{name}: only {len(templates)} templates")
    queues = []
    for tpl in templates:
        fills = list(tpl["fill"])
        rng.shuffle(fills)
        queues.append(fills)
    pairs, used = [], set()
    while len(pairs) < n:
        progress = False
        for ti, tpl in enumerate(templates):
            if len(pairs) >= n:
                break
            while queues[ti]:
                values = queues[ti].pop()
                stored = render(tpl["s"], _side(values, 0))
                query = render(tpl["q"] if tpl["q"] is not None else tpl["s"], _side(values, 1))
                if rng.random() < 0.5:
                    stored, query = query, stored
                if stored == query:
                    continue
                if near_miss and norm(stored) == norm(query):
                    continue
                key = frozenset((stored, query))
                if key in seen:
                    continue
                seen.add(key)
                pairs.append({"category": name, "stored": stored, "query": query})
                used.add(ti)
                progress = True
                break
        if not progress:
            raise ValueError(f"{name}: ran out of fillers at {len(pairs)} pairs")
    if len(used) < MIN_TEMPLATES:
        raise ValueError(f"{name}: only {len(used)} templates used")
    return pairs


def main():
    rng = random.Random(SEED)
    seen = set()
    text_pairs, positives = [], []
    for name, templates in NEAR_MISS_CATEGORIES:
        text_pairs.extend(build_category(rng, name, templates, PER_CATEGORY, seen, True))
    for name, templates in POSITIVE_CATEGORIES:
        positives.extend(build_category(rng, name, templates, PER_CATEGORY, seen, False))

    def counts(items, cats):
        return ", ".join(
            f"{c} ({sum(1 for p in items if p['category'] == c)})" for c, _ in cats
        )

    description = (
        "Held-out set v36, written blind (from scratch, without reading the project's code, rules, "
        "tests or other sets). Theme: consumer technology help that non-developers ask a chat "
        "assistant - phones (iPhone, Android), Windows 10/11, macOS, ChromeOS and Linux desktops, "
        "Excel and Google Sheets formulas, Word, PowerPoint, Outlook and Gmail, browsers, printers "
        "and Wi-Fi routers, smart home devices, streaming services and TVs, game consoles, cameras, "
        "backups and cloud storage, account security and keyboard shortcuts. "
        f"text_pairs are must-not-hit near misses ({len(text_pairs)}): "
        f"{counts(text_pairs, NEAR_MISS_CATEGORIES)}. "
        f"positives are true paraphrases ({len(positives)}): "
        f"{counts(positives, POSITIVE_CATEGORIES)}. "
        f"Every category uses at least {MIN_TEMPLATES} templates filled from hand-written word "
        f"lists; generated deterministically with random.Random({SEED})."
    )
    data = {"description": description, "text_pairs": text_pairs, "positives": positives}
    OUT_PATH.parent.mkdir(parents=True, exist_ok=True)
    with OUT_PATH.open("w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    print(f"wrote {OUT_PATH}: {len(text_pairs)} text_pairs, {len(positives)} positives")


if __name__ == "__main__":
    main()
