#!/usr/bin/env bash
# Scores `narrate cast` against the Project Dialogism Novel Corpus annotations: quotation
# detection, speaker accuracy (overall and by quote type), precision of attributed quotations
# and character gender, per novel and overall.
#
#   scripts/evaluate-dialogue.sh [NOVELS_DIR]        (default: ../shared/dialogue/novels)
#   NARRATE=path/to/narrate scripts/evaluate-dialogue.sh
#
# A found part matches the annotations when half of it or more lies in an annotated quotation;
# an annotated part is found when half of it or more is covered by found parts. A quotation's
# predicted speaker is the speaker of the found part overlapping it most; a predicted character
# stands for the annotated character sharing most names with it (main name or aliases, a
# leading "the" and case ignored). An
# unattributed quotation counts as wrong in accuracy and is left out of precision.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
novels="${1:-$here/../shared/dialogue/novels}"
narrate="${NARRATE:-$here/.build/debug/narrate}"
exec python3 - "$novels" "$narrate" <<'PY'
import ast, bisect, csv, json, os, subprocess, sys
from collections import defaultdict

novels_dir, narrate = sys.argv[1], sys.argv[2].split()
csv.field_size_limit(10**9)

def run(*args):
    return json.loads(subprocess.run(narrate + ['cast', *args], check=True, capture_output=True, text=True).stdout)

def covered(span, others):
    """How much of `span` the sorted, non-nested spans `others` cover."""
    a, b = span
    i = max(0, bisect.bisect_left(others, (a, a)) - 1)
    total = 0
    while i < len(others) and others[i][0] < b:
        c, d = others[i]
        total += max(0, min(b, d) - max(a, c))
        i += 1
    return total

def evaluate(folder):
    path = os.path.join(folder, 'novel_text.txt')
    parts = run(path, '--quotes', '--json')
    cast = run(path, '--json')
    gold_chars = list(csv.DictReader(open(os.path.join(folder, 'character_info.csv'), encoding='utf-8')))
    def norm(name):  # "The Mouse" and "Mouse" are one name
        name = name.strip().lower()
        return name[4:] if name.startswith('the ') else name
    names = []
    for row in gold_chars:
        aliases = ast.literal_eval(row['Aliases']) if row['Aliases'].startswith('{') else set()
        names.append({norm(n.split(' - ')[0]) for n in (row['Main Name'], *aliases)})
    # The annotations name a quotation's speaker by the character's main name or by one of its
    # aliases ("Kemp" for the character named "The Doctor"), and split one person into roles
    # ("Christopher Robin - External", "- Story"): a role is its person.
    person = {}
    for i, row in enumerate(gold_chars):
        person.setdefault(row['Main Name'].split(' - ')[0].strip(), i)
    same = {i: person[row['Main Name'].split(' - ')[0].strip()] for i, row in enumerate(gold_chars)}
    main_of = {row['Main Name'].strip(): same[i] for i, row in enumerate(gold_chars)}
    by_alias = defaultdict(set)
    for i, n in enumerate(names):
        for alias in n:
            by_alias[alias].add(same[i])
    def gold_speaker(name):
        if name.strip() in main_of:
            return main_of[name.strip()]
        found = by_alias.get(norm(name), set())
        return next(iter(found)) if len(found) == 1 else None
    def gold_of(character):
        mine = {norm(n) for n in (character['name'], *character['aliases'])}
        scored = [(len(mine & n), norm(character['name']) in n, -i) for i, n in enumerate(names)]
        best = max(scored)
        return same[-best[2]] if best[0] > 0 else None
    mapped = {c['name']: gold_of(c) for c in cast}
    quotes = list(csv.DictReader(open(os.path.join(folder, 'quotation_info.csv'), encoding='utf-8')))
    gold_spans = []
    for q in quotes:
        q['spans'] = [tuple(s) for s in ast.literal_eval(q['quoteByteSpans'])]
        gold_spans += q['spans']
    gold_spans.sort()
    parts.sort(key=lambda p: (p['start'], p['end']))
    found = [(p['start'], p['end']) for p in parts]
    # Detection, part by part.
    tp_found = sum(1 for s in found if 2 * covered(s, gold_spans) >= s[1] - s[0])
    tp_gold = sum(1 for s in gold_spans if 2 * covered(s, found) >= s[1] - s[0])
    r = {'found': len(found), 'gold': len(gold_spans), 'tp_found': tp_found, 'tp_gold': tp_gold}
    # Speakers, quotation by quotation.
    by_type = defaultdict(lambda: [0, 0])
    attributed = correct_attributed = 0
    for q in quotes:
        best, best_overlap = None, 0
        lo = max(0, bisect.bisect_left(found, (min(a for a, _ in q['spans']), 0)) - 1)
        hi = bisect.bisect_left(found, (max(b for _, b in q['spans']), 0))
        for p in parts[lo:hi]:
            overlap = covered((p['start'], p['end']), sorted(q['spans']))
            if overlap > best_overlap:
                best, best_overlap = p, overlap
        speaker = best['speaker'] if best else None
        right = speaker is not None and mapped.get(speaker) is not None and mapped[speaker] == gold_speaker(q['speaker'])
        for key in (q['quoteType'], 'All'):
            by_type[key][0] += right
            by_type[key][1] += 1
        if speaker is not None:
            attributed += 1
            correct_attributed += right
    r['types'] = dict(by_type)
    r['attributed'], r['correct_attributed'] = attributed, correct_attributed
    # Gender of the annotated characters a found character stands for.
    genders = [0, 0]
    seen = set()
    for c in cast:
        g = mapped.get(c['name'])
        if g is None or g in seen or gold_chars[g]['Gender'] not in ('M', 'F'):
            continue
        seen.add(g)
        genders[0] += c['gender'] == gold_chars[g]['Gender']
        genders[1] += 1
    r['genders'] = genders
    return r

def ratio(a, b):
    return a / b if b else 0.0

def row(name, r):
    p, rc = ratio(r['tp_found'], r['found']), ratio(r['tp_gold'], r['gold'])
    f1 = ratio(2 * p * rc, p + rc)
    t = r['types']
    acc = lambda k: ratio(*t.get(k, [0, 0]))
    return (f"{name[:28]:<28} {p:6.3f} {rc:6.3f} {f1:6.3f} {acc('All'):6.3f} {acc('Explicit'):6.3f} "
            f"{acc('Anaphoric'):6.3f} {acc('Implicit'):6.3f} {ratio(r['correct_attributed'], r['attributed']):6.3f} "
            f"{ratio(r['attributed'], t['All'][1]):6.3f} {ratio(*r['genders']):6.3f} ({r['genders'][1]})")

print(f"{'novel':<28} {'det.P':>6} {'det.R':>6} {'det.F1':>6} {'acc':>6} {'expl':>6} {'anaph':>6} "
      f"{'impl':>6} {'attrP':>6} {'attr%':>6} {'gender':>6}")
total = {'found': 0, 'gold': 0, 'tp_found': 0, 'tp_gold': 0, 'types': defaultdict(lambda: [0, 0]),
         'attributed': 0, 'correct_attributed': 0, 'genders': [0, 0]}
for name in sorted(os.listdir(novels_dir)):
    folder = os.path.join(novels_dir, name)
    if not os.path.isfile(os.path.join(folder, 'quotation_info.csv')):
        continue
    r = evaluate(folder)
    print(row(name, r))
    for key in ('found', 'gold', 'tp_found', 'tp_gold', 'attributed', 'correct_attributed'):
        total[key] += r[key]
    for k, (a, b) in r['types'].items():
        total['types'][k][0] += a
        total['types'][k][1] += b
    total['genders'] = [total['genders'][0] + r['genders'][0], total['genders'][1] + r['genders'][1]]
print(row('OVERALL', total))
PY
