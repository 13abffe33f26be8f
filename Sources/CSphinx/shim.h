#include <pocketsphinx.h>
#include <ngram_model.h>
