"""Time-control presets for the device menu: (name, time control).

Generated from seeds/time_controls.json by tools/gen_presets.py; do not edit.
Each preset's rulebook and article are in the seeds file.
"""

PRESETS = (
    ('1975-1', '40/9000:16/3600'),
    ('1975-2', '40/7200:20/3600'),
    ('1975-3', '40/5400:20/2700'),
    ('fmjd-cumulative', '50/7200:25/3600'),
    ('fmjd-sudden-death', '5400'),
    ('fmjd-fischer', '4800+60'),
    ('fide-classical', '40/5400+30:1800+30'),
    ('fide-rapid', '900+10'),
    ('fide-blitz', '180+2'),
    ('blitz-5-3', '300+3'),
    ('us-delay-g90', '5400d5'),
    ('minzu-byoyomi', '1800:3x30'),
    ('go-canadian', '3600:c25/600'),
    ('hourglass-1', '*60'),
    ('armageddon-5-4', 'W300-B240'),
    ('armageddon-worldcup', 'W60/300:0+3-B60/240:0+3'),
    ('armageddon-norway', 'W40/600:0+1-B40/420:0+1'),
    ('training', '-'),
)
