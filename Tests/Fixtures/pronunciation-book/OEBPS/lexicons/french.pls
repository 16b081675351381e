<?xml version="1.0" encoding="UTF-8"?>
<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon"
         alphabet="ipa" xml:lang="fr">
  <!-- For French voices only: an English voice reads "bonjour" as written. -->
  <lexeme><grapheme>bonjour</grapheme><phoneme>bɔ̃ʒuʁ</phoneme></lexeme>
</lexicon>
