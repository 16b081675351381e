<?xml version="1.0" encoding="UTF-8"?>
<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon"
         alphabet="ipa" xml:lang="en-US">
  <!-- Case as written: only "nginx" (not "NGINX"), only "Reading" the town (not "reading"). -->
  <lexeme><grapheme>nginx</grapheme><phoneme>ˈɛndʒɪnˈɛks</phoneme></lexeme>
  <lexeme><grapheme>Reading</grapheme><phoneme>ˈɹɛdɪŋ</phoneme></lexeme>
  <!-- Both cases listed: both are said the same. -->
  <lexeme><grapheme>GIF</grapheme><grapheme>gif</grapheme><phoneme>dʒɪf</phoneme></lexeme>
  <!-- A click eSpeak has no phoneme for: a warning naming Zzyzx, and the word read as written. -->
  <lexeme><grapheme>Zzyzx</grapheme><phoneme>ˈzaɪʘzɪks</phoneme></lexeme>
</lexicon>
